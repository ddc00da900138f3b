import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplayServer, type ReplayServer } from "../llm/index.js";
import { openWorkspace } from "../store/index.js";
import { llmConfigFromFlags } from "./llm-flags.js";

const main = join(import.meta.dirname, "main.ts");
/** Run the CLI without blocking the event loop (the replay servers live in this process). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, ["--import", "tsx", main, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    c.stdout.on("data", (b: Buffer) => (out += b.toString()));
    c.stderr.on("data", (b: Buffer) => (err += b.toString()));
    c.on("exit", (code) => resolve({ code, out, err }));
  });
}

describe("evolve --policy openai from the command line", () => {
  let operator: ReplayServer;
  let memory: ReplayServer;
  beforeAll(async () => {
    // Replies without a code block: every node is missing_code, so nothing runs in the sandbox.
    operator = await startReplayServer([{ kind: "text", text: "I will not write code today." }], { onExhausted: "repeat-last" });
    memory = await startReplayServer([{ kind: "text", text: "a summary" }], { onExhausted: "repeat-last" });
  });
  afterAll(async () => {
    await operator.close();
    await memory.close();
  });

  it("records every call in llm_calls, sends the flags' settings, and keeps the memory model separate", async () => {
    const ws = join(mkdtempSync(join(tmpdir(), "openmle-llmflags-")), "ws");
    const r = await cli([
      "evolve", "--task", "penguins", "--policy", "openai", "--base-url", operator.baseURL, "--model", "op-model", "--steps", "3", "--seed", "1",
      "--workspace", ws, "--api-key-env", "OPENMLE_TEST_KEY", "--temperature", "0.2", "--max-tokens", "321",
      "--llm-extra", '{"chat_template_kwargs":{"enable_thinking":false}}', "--json",
    ], { OPENMLE_TEST_KEY: "sk-test-123" });
    expect(r.code, r.err).toBe(0);
    // Off a terminal: one progress line per node on stderr.
    expect(r.err.match(/^step \d n\d{4} \w+ missing_code .*\(\d of 3 nodes done\)$/gm)).toHaveLength(3);
    expect(operator.requests.length).toBeGreaterThanOrEqual(3);
    const body = operator.requests[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: "op-model", temperature: 0.2, max_tokens: 321, chat_template_kwargs: { enable_thinking: false } });
    expect(operator.requests[0]!.headers.authorization).toBe("Bearer sk-test-123");
    expect(memory.requests).toHaveLength(0);
    const w = await openWorkspace(ws, { readOnly: true });
    const calls = await w.query<{ purpose: string; model: string; n: number; tokens: number }>(
      "SELECT purpose, model, count(*) AS n, sum(prompt_tokens) AS tokens FROM llm_calls GROUP BY ALL");
    w.close();
    // Without --memory-model no summary is asked of the operator model: every call is an operator call.
    expect(calls).toEqual([{ purpose: "operator", model: "op-model", n: operator.requests.length, tokens: expect.any(Number) }]);
    expect(calls[0]!.tokens).toBeGreaterThan(0);
  }, 240_000);

  it("--memory-model sends node summaries to its own endpoint, recorded with purpose memory", async () => {
    const ws = join(mkdtempSync(join(tmpdir(), "openmle-llmflags-")), "ws");
    const before = operator.requests.length;
    const r = await cli(["evolve", "--task", "penguins", "--policy", "openai", "--base-url", operator.baseURL, "--steps", "4", "--seed", "1",
      "--workspace", ws, "--memory-model", "mem-model", "--memory-base-url", memory.baseURL]);
    expect(r.code, r.err).toBe(0);
    expect(memory.requests.length).toBeGreaterThan(0);
    expect((memory.requests[0]!.body as { model: string }).model).toBe("mem-model");
    const w = await openWorkspace(ws, { readOnly: true });
    const calls = await w.query<{ purpose: string; model: string; n: number }>("SELECT purpose, model, count(*) AS n FROM llm_calls GROUP BY ALL ORDER BY purpose");
    w.close();
    expect(calls).toEqual([
      { purpose: "memory", model: "mem-model", n: memory.requests.length },
      { purpose: "operator", model: "Qwen/Qwen3-8B", n: operator.requests.length - before },
    ]);
  }, 240_000);

  it("a failed command leaves no new workspace behind", async () => {
    const ws = join(mkdtempSync(join(tmpdir(), "openmle-llmflags-")), "never");
    const r = await cli(["evolve", "--task", "penguins", "--resume", "no-such-run", "--workspace", ws]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^openmle: run "no-such-run" is not in workspace/);
    expect(existsSync(ws)).toBe(false);
  }, 120_000);

  it("bad LLM flags name the flag", () => {
    expect(() => llmConfigFromFlags({ temperature: "3" })).toThrow(/^--temperature 3 is out of range: use a number from 0 to 2\.$/);
    expect(() => llmConfigFromFlags({ maxTokens: "-1" })).toThrow(/^--max-tokens -1 is out of range: use an integer from 1 to 1000000\.$/);
    expect(() => llmConfigFromFlags({ llmExtra: "{nope" })).toThrow(/^--llm-extra must be a JSON object/);
    expect(() => llmConfigFromFlags({ apiKeyEnv: "OPENMLE_SURELY_UNSET_VAR" })).toThrow(/^--api-key-env OPENMLE_SURELY_UNSET_VAR: that environment variable is not set/);
  });
});
