import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  LlmAuthError, LlmBadRequestError, LlmBadResponseError, LlmConnectionError, LlmNotFoundError, LlmRateLimitError, LlmServerError, LlmTimeoutError,
} from "../llm/errors.js";
import { openWorkspace, WorkspaceLockedError } from "../store/index.js";
import { acceptJob, resolveQueueKey } from "../sandbox/index.js";
import { inCliWords } from "./cli-words.js";

/** What a CLI user must never be told to set: library option names. */
const LIBRARY_WORDS = /\bllm\.[a-zA-Z]+|\breadOnly\b/;

describe("errors in the CLI's words", () => {
  const e = "http://127.0.0.1:9/v1";
  const errors = [
    new LlmRateLimitError(e, "m", null), new LlmServerError(e, "m", 503, "busy"), new LlmTimeoutError(e, "m", 1000),
    new LlmConnectionError(e, "m", "refused"), new LlmBadRequestError(e, "m", 400, "too long"), new LlmAuthError(e, "m", 401),
    new LlmNotFoundError(e, "m", "no model"), new LlmBadResponseError(e, "m", "no choices"),
    new WorkspaceLockedError("/ws", "pid 1"),
  ];
  it.each(errors.map((x) => [x.constructor.name, x] as const))("%s names flags, not library options", (_name, err) => {
    const cli = inCliWords(err.message);
    expect(cli).not.toMatch(LIBRARY_WORDS);
  });

  it("maps each setting to its flag", () => {
    expect(inCliWords(new LlmConnectionError(e, "m", "refused").message)).toMatch(/or fix --base-url\.$/);
    expect(inCliWords(new LlmAuthError(e, "m", 401).message)).toMatch(/Export the key in OPENAI_API_KEY, or name another variable with --api-key-env NAME\.$/);
    expect(inCliWords(new LlmTimeoutError(e, "m", 1000).message)).toMatch(/the llm setting timeoutMs \(openmle config schema llm\), lower --max-tokens/);
  });

  it("opening a folder that is not a workspace read-only is explained in CLI words", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-words-"));
    const ws = join(dir, "missing");
    const err = await openWorkspace(ws, { readOnly: true }).catch((x: Error) => x);
    expect(inCliWords((err as Error).message)).toMatch(/A command that writes \(e\.g\. openmle evolve --workspace DIR\) creates it\./);
  });

  it("names the queue's key file and a worker's caps by their flags", () => {
    const words = (f: () => unknown) => { try { f(); } catch (e) { return inCliWords((e as Error).message); } throw new Error("no error"); };
    const key = words(() => resolveQueueKey({ env: {} }));
    expect(key).toMatch(/export OPENMLE_QUEUE_KEY=<key>, or put it in a file readable only by you and pass the --queue-key-file option\.$/);
    const job = { taskId: "t", taskHash: "h", code: null, priority: 0, limits: { timeoutS: 1, memoryMb: 64, cpus: 1, gpus: 0, diskMb: 1 } };
    const caps = { timeoutS: 600, memoryMb: 32, diskMb: 8192, cpus: 1 };
    expect(words(() => acceptJob(job, caps, 0))).toMatch(/cap of 32 MiB; ask for less, or start workers with a higher --max-memory$/);
    expect(words(() => acceptJob({ ...job, limits: { ...job.limits, gpus: 1 } }, { ...caps, memoryMb: 64 }, 0))).toMatch(/more GPU slots \(openmle worker --gpus\)$/);
  });
});
