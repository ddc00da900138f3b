// The LLM policy end to end: typed prompt → real HTTP (replay server on 127.0.0.1) → parsed reply,
// with every call recorded in a real DuckDB workspace.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { countChatTokens } from "../../llm/qwen3-tokens.js";
import { createOpenAIModel } from "../../llm/openai-provider.js";
import { recordingModel } from "../../llm/recording-model.js";
import { replies, startReplayServer, type ReplayReply, type ReplayRequest, type ReplayServer } from "../../llm/replay-server.js";
import { LlmServerError } from "../../llm/errors.js";
import { openWorkspace, type Workspace } from "../../store/index.js";
import { createRng } from "../../util/rng.js";
import { OPERATORS, type Operator } from "../types.js";
import { createLlmPolicy } from "./llm-policy.js";
import { operatorPromptChars } from "./operator-prompt.js";
import { contextFor, tinyTask } from "./test-helpers.js";

const task = tinyTask();
const rng = createRng(1);
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0)) await f();
});
async function serve(script: Parameters<typeof startReplayServer>[0]): Promise<ReplayServer> {
  const s = await startReplayServer(script);
  cleanup.push(() => s.close());
  return s;
}
async function workspace(): Promise<Workspace> {
  const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-policy-llm-")), "ws"));
  cleanup.push(() => ws.close());
  return ws;
}

// A scripted "model" that answers by the operator named in the prompt's instructions.
function byOperator(req: ReplayRequest): ReplayReply {
  const user = req.messages[1]?.content ?? "";
  const op: Operator = user.includes("Fix the failing program") ? "debug"
    : user.includes("Combine the two parent programs") ? "crossover"
      : user.includes("Improve the parent program") ? "improve" : "draft";
  return replies.text(`Plan for ${op}: use a random forest.\n\n\`\`\`python\nprint("${op}")\nprint("Final Validation Score: 0.9")\n\`\`\`\n`);
}

describe("createLlmPolicy", () => {
  it("proposes a plan and one program for every operator, recording each call", async () => {
    const s = await serve(byOperator);
    const ws = await workspace();
    const model = recordingModel(createOpenAIModel({ baseURL: s.baseURL, model: "qwen-test" }), ws, { promptPricePerMTok: 1, completionPricePerMTok: 1 });
    const policy = createLlmPolicy(model);
    expect(policy.name).toBe("llm:qwen-test");
    for (const op of OPERATORS) {
      const out = await policy.propose(task, op, { ...contextFor(op), runId: "run-7", nodeId: `node-${op}` }, rng);
      expect(out.plan).toBe(`Plan for ${op}: use a random forest.`);
      expect(out.code).toBe(`print("${op}")\nprint("Final Validation Score: 0.9")\n`);
      expect(out.usage!.promptChars).toBe(s.requests.at(-1)!.messages.reduce((n, m) => n + m.content.length, 0));
      // what harnesses record for every policy (cards.prompt_chars) is what this policy sent
      expect(operatorPromptChars(task, op, contextFor(op))).toBe(out.usage!.promptChars);
      expect(out.usage!.promptTokens).toBeGreaterThan(100);
      expect(out.usage!.completionTokens).toBeGreaterThan(5);
      expect(out.usage!.costUsd).toBeCloseTo((out.usage!.promptTokens + out.usage!.completionTokens) / 1e6, 12);
    }
    // What was sent is exactly what preview() shows a notebook.
    expect(s.requests[1]!.messages).toEqual(policy.preview(task, "improve", contextFor("improve")).messages);
    const rows = await ws.query<{ operator: string; node_id: string; run_id: string; purpose: string; status: string }>(
      "SELECT operator, node_id, run_id, purpose, status FROM llm_calls ORDER BY created_at",
    );
    expect(rows).toEqual(OPERATORS.map((op) => ({ operator: op, node_id: `node-${op}`, run_id: "run-7", purpose: "operator", status: "ok" })));
  });

  it("returns code null when the reply has no code block (→ missing_code)", async () => {
    const s = await serve([replies.text("I would use gradient boosting, but here is no code.")]);
    const out = await createLlmPolicy(createOpenAIModel({ baseURL: s.baseURL })).propose(task, "draft", contextFor("draft"), rng);
    expect(out.code).toBeNull();
    expect(out.plan).toBe("I would use gradient boosting, but here is no code.");
  });

  it("counts tokens with the Qwen3 tokenizer when the endpoint reports no usage", async () => {
    const s = await serve([{ kind: "text", text: "Plan.\n```python\nprint(1)\n```", usage: null }]);
    const out = await createLlmPolicy(createOpenAIModel({ baseURL: s.baseURL })).propose(task, "draft", contextFor("draft"), rng);
    expect(out.usage!.promptTokens).toBe(await countChatTokens(s.requests[0]!.messages));
    // Plan | . | \n | ``` | python | \n | print | ( | 1 | )\n | ``` : counted by the tokenizer, not reported
    expect(out.usage!.completionTokens).toBeGreaterThan(5);
    expect(out.usage!.completionTokens).toBeLessThan(20);
  });

  it("sends the policy's temperature and token limit when set", async () => {
    const s = await serve([replies.text("```python\nx=1\n```")]);
    await createLlmPolicy(createOpenAIModel({ baseURL: s.baseURL }), { temperature: 0.2, maxTokens: 1234 }).propose(task, "draft", contextFor("draft"), rng);
    expect(s.requests[0]!.body).toMatchObject({ temperature: 0.2, max_tokens: 1234 });
  });

  it("throws the typed error after retries, or returns missing code when configured", async () => {
    const s = await serve(() => replies.error(503, "overloaded"));
    const model = createOpenAIModel({ baseURL: s.baseURL, maxRetries: 1, retryBaseDelayMs: 10 });
    await expect(createLlmPolicy(model).propose(task, "draft", contextFor("draft"), rng)).rejects.toBeInstanceOf(LlmServerError);
    const out = await createLlmPolicy(model, { onModelError: "missing_code" }).propose(task, "draft", contextFor("draft"), rng);
    expect(out.code).toBeNull();
    expect(out.plan).toMatch(/^model call failed \(server_error\)/);
  });
});

describe("operatorPromptChars", () => {
  it("is null where the context lacks the parents the operator's prompt needs (a grammar policy may still act)", () => {
    expect(operatorPromptChars(task, "crossover", { ...contextFor("crossover"), parents: contextFor("crossover").parents.slice(0, 1) })).toBeNull();
    expect(operatorPromptChars(task, "improve", { ...contextFor("improve"), parents: [] })).toBeNull();
    expect(operatorPromptChars(task, "draft", contextFor("draft"))).toBeGreaterThan(100);
  });
});
