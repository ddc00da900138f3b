// loadLlmCalls over rows recordingModel really wrote (replay server, DuckDB); summarizeLlmCalls by hand.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { summarizeLlmCalls, loadLlmCalls, type LlmCallRow } from "./llm-store.js";
import { createOpenAIModel } from "./openai-provider.js";
import { recordingModel } from "./recording-model.js";
import { replies, startReplayServer } from "./replay-server.js";

describe("loadLlmCalls", () => {
  it("reads back each call of a run, in call order, with its sizes, status and text", async () => {
    const s = await startReplayServer([
      replies.text("plan\n```python\nprint(1)\n```", { usage: { promptTokens: 100, completionTokens: 20 } }),
      replies.error(400, "context too long"),
      replies.text("other run", { usage: { promptTokens: 5, completionTokens: 2 } }),
    ]);
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-llm-store-")), "ws"));
    try {
      const model = recordingModel(createOpenAIModel({ baseURL: s.baseURL, model: "m", maxRetries: 0 }), ws);
      const msgs = [{ role: "user" as const, content: "hello" }];
      await model.chat({ messages: msgs, runId: "r1", nodeId: "n0000", operator: "draft", purpose: "operator" });
      await model.chat({ messages: msgs, runId: "r1", nodeId: "n0001", operator: "debug" }).catch(() => undefined);
      await model.chat({ messages: msgs, runId: "r2", operator: "improve" });
      const calls = await loadLlmCalls(ws, { runId: "r1" });
      expect(calls.map((c) => [c.nodeId, c.operator, c.status, c.promptChars, c.promptTokens, c.completionTokens])).toEqual([
        ["n0000", "draft", "ok", 5, 100, 20],
        ["n0001", "debug", "bad_request", 5, null, null],
      ]);
      expect(calls[0]!.completion).toMatch(/print\(1\)/);
      expect(JSON.parse(calls[0]!.prompt!)).toEqual([{ role: "user", content: "hello" }]);
      expect(calls[0]!.createdAt).toBeInstanceOf(Date);
      expect((await loadLlmCalls(ws)).map((c) => c.runId)).toEqual(["r1", "r1", "r2"]);
    } finally {
      ws.close();
      await s.close();
    }
  });
});

describe("summarizeLlmCalls", () => {
  const call = (operator: string | null, p: Partial<LlmCallRow>): LlmCallRow => ({
    callId: "c", runId: "r", nodeId: null, operator, purpose: "operator", model: "m", promptChars: 0, promptTokens: null,
    completionTokens: null, tokensSource: null, latencyMs: null, costUsd: null, status: "ok", error: null, prompt: null,
    completion: null, createdAt: new Date(0), ...p,
  });
  it("groups by operator in first-seen order; means skip missing values; failures counted", () => {
    const rows = [
      call("draft", { promptChars: 100, promptTokens: 30, completionTokens: 10, latencyMs: 200, costUsd: 0.001 }),
      call("improve", { promptChars: 300, promptTokens: 90, completionTokens: 20, latencyMs: 100 }),
      call("draft", { promptChars: 200, promptTokens: 50, completionTokens: null, latencyMs: 400, status: "timeout" }),
      call(null, { promptChars: 10 }),
    ];
    expect(summarizeLlmCalls(rows)).toEqual([
      // (100 + 200) / 2; (30 + 50) / 2; completion only the first; (200 + 400) / 2
      { operator: "draft", calls: 2, failed: 1, meanPromptChars: 150, meanPromptTokens: 40, meanCompletionTokens: 10, meanLatencyMs: 300, totalCostUsd: 0.001 },
      { operator: "improve", calls: 1, failed: 0, meanPromptChars: 300, meanPromptTokens: 90, meanCompletionTokens: 20, meanLatencyMs: 100, totalCostUsd: 0 },
      { operator: "other", calls: 1, failed: 0, meanPromptChars: 10, meanPromptTokens: null, meanCompletionTokens: null, meanLatencyMs: null, totalCostUsd: 0 },
    ]);
    expect(summarizeLlmCalls([])).toEqual([]);
  });
});
