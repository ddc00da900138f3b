// The queue as a trust boundary (issue 25, breaks 3 and 4), against a real redis-server: a rogue BullMQ
// worker's forged record and a valid record replayed for another job are refused by the client (library
// and `sandbox run --backend queue`), nothing is stored or printed. An honest in-process worker runs on
// its own prefix of the same Redis.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { Queue, UnrecoverableError, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, packageHash, type TaskPackage } from "../gym/index.js";
import { openWorkspace } from "../store/index.js";
import { registerSandbox } from "../cli/sandbox-cmd.js";
import { QueueAuthError, QueueRecordError } from "./errors.js";
import { codeHash, idempotencyKey } from "./idempotency-key.js";
import { resolveLimits } from "./limits.js";
import { jobDataHash, resolveQueueKey, sealRecord } from "./queue-auth.js";
import { CPU_QUEUE, SandboxQueueClient, type QueueClientEvent } from "./queue-client.js";
import { startSandboxWorker } from "./queue-worker.js";
import { LocalExecutor, probeBwrap } from "./local-executor.js";
import { TINY_TASK_DIR } from "./test-helpers.js";

const why = spawnSync("redis-server", ["--version"]).error ? "redis-server is not installed (apt-get install redis-server)" : probeBwrap();
if (why) console.warn(`SKIP queue trust tests: ${why}`);
const KEY = "trust-test-key-".padEnd(64, "7");
const limits = { timeoutS: 30, memoryMb: 512, cpus: 1 };
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}
const SAMPLE = 'import os, shutil\nshutil.copy(os.path.join(os.environ["DATA_DIR"], "sample_submission.csv"), "submission.csv")\nprint("Final Validation Score: 0.5")\n';

describe.skipIf(!!why)("the queue refuses what it cannot authenticate", () => {
  let redis: ChildProcess;
  let url: string;
  let task: TaskPackage;
  let dir: string;
  let honest: { close(): Promise<unknown> };
  beforeAll(async () => {
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    task = await loadTask(TINY_TASK_DIR);
    dir = mkdtempSync(join(tmpdir(), "sbx-trust-"));
    honest = await startSandboxWorker({ redisUrl: url, executor: new LocalExecutor(), cpus: 1, tasks: [task], key: KEY, prefix: "honest", workerId: "honest" });
  });
  afterAll(async () => {
    await honest?.close();
    redis?.kill("SIGKILL");
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A BullMQ worker on `prefix` answering every job with `answer` (it holds Redis access, not the key). */
  const rogue = (prefix: string, answer: (job: Job) => unknown) => new Worker(CPU_QUEUE, async (job) => answer(job), { connection: { url }, prefix });
  /** A complete record claiming a perfect hidden-test score (what the rogue worker returned). */
  const forged = (job: Job) => ({
    executionId: `forged-${job.id}`, idempotencyKey: job.id, taskId: job.data.taskId, backend: "queue", status: "success",
    validScore: 1, testScore: 1, errorType: null, errorSignature: null, traceback: null, stdoutTail: "", stderrTail: "",
    wallS: 0.1, cpuS: 0.1, peakMemMb: null, artifacts: [], codeHash: "0", limits: job.data.limits,
    startedAt: new Date().toISOString(), endedAt: new Date().toISOString(), worker: "rogue",
  });

  it("a rogue worker's forged success is refused with QueueAuthError, reported, not stored, and its job removed", async () => {
    const ws = await openWorkspace(join(dir, "ws-lib"));
    const forger = rogue("openmle", forged);
    const seen: QueueClientEvent[] = [];
    const client = await SandboxQueueClient.connect(url, { key: KEY, workspace: ws, onEvent: (e) => seen.push(e) });
    try {
      const err = await client.submit({ task, code: "print('no submission')\n", limits }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(QueueAuthError);
      expect((err as QueueAuthError).message).toMatch(/^Refused the result of queue job \w+: it carries no sealed record\. .*nothing was stored/);
      expect(seen).toEqual([{ type: "record-refused", jobId: (err as QueueAuthError).jobId, message: (err as Error).message }]);
      expect(await ws.query("SELECT count(*) AS n FROM executions")).toEqual([{ n: 0 }]);
      const queue = new Queue(CPU_QUEUE, { connection: { url }, prefix: "openmle" });
      expect(await queue.getJob((err as QueueAuthError).jobId)).toBeUndefined();
      await queue.close();
    } finally {
      await client.close();
      await forger.close();
      ws.close();
    }
  });

  it("`sandbox run --backend queue` prints no score for a forged record: one error, nothing stored", async () => {
    const forger = rogue("openmle", forged);
    const code = join(dir, "main.py");
    const keyFile = join(dir, "queue.key");
    writeFileSync(code, "print('hello')\n");
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    const program = new Command().exitOverride();
    registerSandbox(program);
    let out = "";
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
    try {
      const run = program.parseAsync(["node", "openmle", "sandbox", "run", "--task", TINY_TASK_DIR, "--code", code, "--backend", "queue", "--redis", url, "--queue-key-file", keyFile, "--timeout", "30", "--memory", "512", "--workspace", join(dir, "ws-cli")]);
      await expect(run).rejects.toThrow(/carries no sealed record/);
    } finally {
      process.stdout.write = write;
      await forger.close();
    }
    expect(out).toBe("");
    const ws = await openWorkspace(join(dir, "ws-cli"));
    expect(await ws.query("SELECT count(*) AS n FROM executions")).toEqual([{ n: 0 }]);
    ws.close();
  });

  it("a valid record of one job, replayed for another, is refused; the honest worker's own record is accepted", async () => {
    const good = await SandboxQueueClient.connect(url, { key: KEY, prefix: "honest" });
    const record = await good.submit({ task, code: SAMPLE, limits });
    await good.close();
    expect([record.status, record.worker, typeof record.testScore]).toEqual(["success", "honest", "number"]);
    const honestQueue = new Queue(CPU_QUEUE, { connection: { url }, prefix: "honest" });
    const sealed = (await honestQueue.getJob(record.idempotencyKey))!.returnvalue as unknown;
    await honestQueue.close();
    const replayer = rogue("replay", () => sealed);
    const client = await SandboxQueueClient.connect(url, { key: KEY, prefix: "replay" });
    try {
      // another program (e.g. one that writes no submission) would be credited the good one's score
      const err = await client.submit({ task, code: "print('nothing')\n", limits }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(QueueAuthError);
      expect((err as Error).message).toMatch(/its tag is invalid/);
      // the same program under other limits is another job too
      await expect(client.submit({ task, code: SAMPLE, limits: { ...limits, memoryMb: 600 } })).rejects.toThrow(QueueAuthError);
    } finally {
      await client.close();
      await replayer.close();
    }
  });

  /** A BullMQ worker on `prefix` that holds the key and seals `edit(record)` for each job (a rogue, or another version). */
  const keyedRogue = (prefix: string, edit: (r: Record<string, unknown>) => Record<string, unknown>) =>
    new Worker(CPU_QUEUE, async (job) => {
      const { tag: _tag, ...data } = job.data as Record<string, unknown>;
      const valid = { ...forged(job), codeHash: codeHash(String(data.code)), artifacts: ["submission.csv"] };
      return sealRecord(resolveQueueKey({ key: KEY }), String(job.id), jobDataHash(data as never), edit(valid));
    }, { connection: { url }, prefix });

  it("a failed job planted under the job id (a worker-shaped refusal, finishedOn in the future) is replaced", async () => {
    const code = `print('planted ${Date.now()}')\n`;
    const id = idempotencyKey({ taskId: task.meta.id, taskHash: packageHash(task.dir), code, limits: resolveLimits(limits), backend: "queue" });
    const peer = new Redis(url);
    const future = String(Date.now() + 365 * 24 * 3600 * 1000);
    await peer.hset(`honest:${CPU_QUEUE}:${id}`, { name: "run", data: "{}", opts: '{"attempts":1}', timestamp: String(Date.now()), delay: "0", priority: "0", atm: "1", finishedOn: future, failedReason: "refused (over-cap memoryMb): the job asks for memoryMb=512 MiB, over this worker's cap of 256 MiB" });
    await peer.zadd(`honest:${CPU_QUEUE}:failed`, future, id);
    peer.disconnect();
    const client = await SandboxQueueClient.connect(url, { key: KEY, prefix: "honest" });
    try {
      for (let i = 0; i < 2; i++) expect((await client.submit({ task, code, limits })).stdoutTail).toContain("planted");
    } finally {
      await client.close();
    }
  });

  it("a refusal no worker sealed is a forgery: the job is replaced, then refused with QueueAuthError and removed", async () => {
    const forger = rogue("unsealed", () => Promise.reject(new UnrecoverableError("refused (over-cap memoryMb): over the cap")));
    const seen: QueueClientEvent[] = [];
    const client = await SandboxQueueClient.connect(url, { key: KEY, prefix: "unsealed", onEvent: (e) => seen.push(e) });
    const queue = new Queue(CPU_QUEUE, { connection: { url }, prefix: "unsealed" });
    try {
      const err = await client.submit({ task, code: "print('unsealed')\n", limits }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(QueueAuthError);
      expect((err as Error).message).toMatch(/^Refused the failure of queue job \w+: it was failed 3 times with a refusal no worker holding this client's key sealed \("refused \(over-cap memoryMb\): over the cap"\)/);
      expect(seen.map((e) => e.type)).toEqual(["record-refused"]);
      expect(await queue.getJob((err as QueueAuthError).jobId)).toBeUndefined();
    } finally {
      await Promise.all([client.close(), forger.close(), queue.close()]);
    }
  });

  it("a key holder's sealed record that is no ExecutionRecord is refused, not stored, and its job removed", async () => {
    const ws = await openWorkspace(join(dir, "ws-bad-record"));
    const bad = keyedRogue("bad-record", (r) => ({ ...r, status: "pwned", startedAt: "yesterday" }));
    const client = await SandboxQueueClient.connect(url, { key: KEY, prefix: "bad-record", workspace: ws });
    const queue = new Queue(CPU_QUEUE, { connection: { url }, prefix: "bad-record" });
    try {
      const err = await client.submit({ task, code: "print('bad')\n", limits }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(QueueRecordError);
      expect((err as Error).message).toMatch(/^Refused the record of queue job \w+: it is not an execution record \("status: Invalid option.*; startedAt: Invalid ISO datetime"\)/);
      expect(await ws.query("SELECT count(*) AS n FROM executions")).toEqual([{ n: 0 }]);
      expect(await queue.getJob((err as QueueRecordError).jobId)).toBeUndefined();
    } finally {
      await Promise.all([client.close(), bad.close(), queue.close()]);
      ws.close();
    }
  });

  it("no record from the queue carries a job folder: a key holder's is dropped, an honest worker with jobsDir sends none", async () => {
    const precious = join(dir, "precious");
    const pointing = keyedRogue("workdir", (r) => ({ ...r, workDir: precious }));
    const client = await SandboxQueueClient.connect(url, { key: KEY, prefix: "workdir" });
    try {
      const record = await client.submit({ task, code: "print('workdir')\n", limits });
      expect([record.status, "workDir" in record]).toEqual(["success", false]);
    } finally {
      await Promise.all([client.close(), pointing.close()]);
    }
    const jobsDir = join(dir, "kept-jobs");
    const keeping = await startSandboxWorker({ redisUrl: url, executor: new LocalExecutor(), cpus: 1, tasks: [task], key: KEY, prefix: "kept", jobsDir });
    const kept = await SandboxQueueClient.connect(url, { key: KEY, prefix: "kept" });
    const queue = new Queue(CPU_QUEUE, { connection: { url }, prefix: "kept" });
    try {
      const record = await kept.submit({ task, code: SAMPLE, limits });
      const sealed = (await queue.getJob(record.idempotencyKey))!.returnvalue as { record: Record<string, unknown> };
      expect([record.status, "workDir" in sealed.record, readdirSync(jobsDir).length]).toEqual(["success", false, 1]);
    } finally {
      await Promise.all([kept.close(), keeping.close(), queue.close()]);
    }
  });
});
