// recordingModel against the replay server and a real DuckDB workspace.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openWorkspace, type Workspace } from "../store/index.js";
import { LlmServerError } from "./errors.js";
import { createOpenAIModel } from "./openai-provider.js";
import { recordingModel } from "./recording-model.js";
import { replies, startReplayServer, type ReplayServer } from "./replay-server.js";
import type { ChatMessage } from "./spec.js";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});
async function setup(script: Parameters<typeof startReplayServer>[0]): Promise<{ ws: Workspace; s: ReplayServer }> {
  const s = await startReplayServer(script);
  const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-llm-")), "ws"));
  cleanup.push(() => s.close(), () => ws.close());
  return { ws, s };
}
const msgs: ChatMessage[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "hi" },
];

describe("recordingModel", () => {
  it("writes one llm_calls row per call: successes with tokens and cost, failures with the error", async () => {
    const { ws, s } = await setup([
      replies.text("one", { usage: { promptTokens: 1000, completionTokens: 500 } }),
      replies.text("Hello, my dog is cute", { usage: null }),
      replies.error(400, "context too long"),
    ]);
    const model = recordingModel(createOpenAIModel({ baseURL: s.baseURL, model: "m" }), ws, {
      runId: "run-1",
      promptPricePerMTok: 2,
      completionPricePerMTok: 8,
    });
    const r1 = await model.chat({ messages: msgs, purpose: "operator", nodeId: "n1", operator: "draft" });
    expect(r1.costUsd).toBeCloseTo(0.002 + 0.004, 12);
    await model.chat({ messages: msgs, purpose: "memory" });
    await expect(model.chat({ messages: msgs })).rejects.toThrow(/context too long/);

    const rows = await ws.query<Record<string, unknown>>(
      "SELECT run_id, node_id, operator, purpose, provider, model, prompt_chars, prompt_tokens, completion_tokens, tokens_source, cost_usd, status, error, prompt, completion, latency_ms FROM llm_calls ORDER BY created_at, status DESC",
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      run_id: "run-1", node_id: "n1", operator: "draft", purpose: "operator", provider: "openai", model: "m",
      prompt_chars: 5, prompt_tokens: 1000, completion_tokens: 500, tokens_source: "provider", status: "ok", error: null, completion: "one",
    });
    expect(rows[0]!.cost_usd).toBeCloseTo(0.006, 12);
    expect(JSON.parse(rows[0]!.prompt as string)).toEqual(msgs);
    expect(rows[1]).toMatchObject({ purpose: "memory", prompt_tokens: 15, completion_tokens: 6, tokens_source: "tokenizer", status: "ok" });
    expect(rows[2]).toMatchObject({ status: "bad_request", prompt_tokens: null, completion: null });
    expect(rows[2]!.error).toMatch(/^LlmBadRequestError: .*context too long/);
    for (const r of rows) expect(r.latency_ms as number).toBeGreaterThanOrEqual(0);
  });

  it("records a call that failed after retries once, with its kind", async () => {
    const { ws, s } = await setup(() => replies.error(500, "down"));
    const model = recordingModel(createOpenAIModel({ baseURL: s.baseURL, maxRetries: 1, retryBaseDelayMs: 10 }), ws);
    await expect(model.chat({ messages: msgs })).rejects.toBeInstanceOf(LlmServerError);
    expect(s.requests).toHaveLength(2);
    expect(await ws.query("SELECT status FROM llm_calls")).toEqual([{ status: "server_error" }]);
  });

  it("takes prices from the wrapped model's llm config when not given", async () => {
    const { ws, s } = await setup([replies.text("x", { usage: { promptTokens: 2_000_000, completionTokens: 1_000_000 } })]);
    const model = recordingModel(createOpenAIModel({ baseURL: s.baseURL, promptPricePerMTok: 0.5, completionPricePerMTok: 3 }), ws);
    expect((await model.chat({ messages: msgs })).costUsd).toBeCloseTo(1 + 3, 12);
  });

  it("keeps every row when calls run in parallel", async () => {
    const { ws, s } = await setup(() => replies.slow("x", 20));
    const model = recordingModel(createOpenAIModel({ baseURL: s.baseURL, concurrency: 4 }), ws, { storeText: false });
    await Promise.all(Array.from({ length: 12 }, (_, i) => model.chat({ messages: msgs, nodeId: `n${i}` })));
    const rows = await ws.query<{ n: number; nodes: number; texts: number }>(
      "SELECT count(*) AS n, count(DISTINCT node_id) AS nodes, count(prompt) + count(completion) AS texts FROM llm_calls",
    );
    expect(rows[0]).toEqual({ n: 12, nodes: 12, texts: 0 });
  });
});
