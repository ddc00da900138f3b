// The llm layer's reads of its own table, llm_calls (rows written by recordingModel): typed rows for notebooks,
// the CLI and the report, and a per-operator summary of them.
import type { Workspace } from "../store/index.js";

/** One recorded model call; `prompt` is the messages as a JSON array (promptText), null when text was not kept. */
export interface LlmCallRow {
  readonly callId: string;
  readonly runId: string | null;
  readonly nodeId: string | null;
  readonly operator: string | null;
  readonly purpose: string | null;
  readonly model: string | null;
  readonly promptChars: number;
  readonly promptTokens: number | null;
  readonly completionTokens: number | null;
  /** Who counted the tokens: the provider's usage, or the kit's Qwen3 tokenizer. */
  readonly tokensSource: string | null;
  readonly latencyMs: number | null;
  readonly costUsd: number | null;
  /** ok, or the LlmError kind. */
  readonly status: string;
  readonly error: string | null;
  readonly prompt: string | null;
  readonly completion: string | null;
  readonly createdAt: Date;
}

/** The calls of one run (or every call), in the order they were made. */
export async function loadLlmCalls(ws: Workspace, opts: { readonly runId?: string } = {}): Promise<LlmCallRow[]> {
  return ws.query<LlmCallRow>(
    `SELECT call_id AS "callId", run_id AS "runId", node_id AS "nodeId", operator, purpose, model,
       prompt_chars AS "promptChars", prompt_tokens AS "promptTokens", completion_tokens AS "completionTokens",
       tokens_source AS "tokensSource", latency_ms AS "latencyMs", cost_usd AS "costUsd", status, error, prompt,
       completion, created_at AS "createdAt"
     FROM llm_calls ${opts.runId === undefined ? "" : "WHERE run_id = $run"} ORDER BY created_at, call_id`,
    opts.runId === undefined ? {} : { run: opts.runId },
  );
}

/** Per operator: how many calls, how many failed, and the means of their sizes, latency and cost. */
export interface LlmCallSummary {
  readonly operator: string;
  readonly calls: number;
  readonly failed: number;
  readonly meanPromptChars: number;
  readonly meanPromptTokens: number | null;
  readonly meanCompletionTokens: number | null;
  readonly meanLatencyMs: number | null;
  readonly totalCostUsd: number;
}

/**
 * Group calls by operator (null → "other"), in the order operators first appear. Means are over the calls that
 * have the value (a failed call has no completion tokens); null when none has it.
 */
export function summarizeLlmCalls(calls: readonly LlmCallRow[]): LlmCallSummary[] {
  const groups = new Map<string, LlmCallRow[]>();
  for (const c of calls) {
    const k = c.operator ?? "other";
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const mean = (xs: (number | null)[]) => {
    const v = xs.filter((x): x is number => x !== null && Number.isFinite(x));
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  return [...groups].map(([operator, g]) => ({
    operator,
    calls: g.length,
    failed: g.filter((c) => c.status !== "ok").length,
    meanPromptChars: mean(g.map((c) => c.promptChars)) ?? 0,
    meanPromptTokens: mean(g.map((c) => c.promptTokens)),
    meanCompletionTokens: mean(g.map((c) => c.completionTokens)),
    meanLatencyMs: mean(g.map((c) => c.latencyMs)),
    totalCostUsd: g.reduce((a, c) => a + (c.costUsd ?? 0), 0),
  }));
}
