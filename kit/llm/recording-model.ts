/**
 * Wraps any LanguageModel so every call, success or failure, becomes one row of the workspace's
 * llm_calls table: tokens (and whether the provider or the tokenizer counted them), latency, cost
 * at the configured prices, prompt size, status (ok or the LlmError kind), error, prompt and
 * completion. Rows are appended one at a time in call order (a queue), so parallel calls are safe
 * on the workspace's single connection.
 */
import { randomUUID } from "node:crypto";
import type { Workspace } from "../store/index.js";
import { callCostUsd, type TokenPrices } from "./cost.js";
import { LlmError } from "./errors.js";
import type { ChatMessage, ChatRequest, ChatResult, LanguageModel } from "./spec.js";

/** Prices default to the wrapped model's `config` (llm.promptPricePerMTok, ...) when it has one. */
export interface RecordingOptions extends Partial<TokenPrices> {
  /** Defaults for requests that do not say (request fields win). */
  readonly runId?: string;
  readonly purpose?: string;
  /** Store prompt and completion text (default true; false keeps only sizes and tokens). */
  readonly storeText?: boolean;
  /** Called when a row cannot be written; without it the write error is thrown from chat(). */
  readonly onRecordError?: (error: unknown) => void;
  readonly now?: () => number;
  readonly newId?: () => string;
}

/** The exact prompt as stored in llm_calls.prompt: the messages as a JSON array. */
export function promptText(messages: readonly ChatMessage[]): string {
  return JSON.stringify(messages.map((m) => ({ role: m.role, content: m.content })));
}

export function promptChars(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + m.content.length, 0);
}

export function recordingModel(model: LanguageModel, workspace: Workspace, opts: RecordingOptions = {}): LanguageModel {
  // Prices: the options, else the wrapped model's llm config (createOpenAIModel), else 0.
  const own = (model as { config?: Partial<TokenPrices> }).config;
  const prices: TokenPrices = {
    promptPricePerMTok: opts.promptPricePerMTok ?? own?.promptPricePerMTok ?? 0,
    completionPricePerMTok: opts.completionPricePerMTok ?? own?.completionPricePerMTok ?? 0,
  };
  const now = opts.now ?? Date.now;
  const newId = opts.newId ?? (() => `call-${randomUUID()}`);
  const storeText = opts.storeText ?? true;
  let queue: Promise<unknown> = Promise.resolve();

  const write = (row: Record<string, unknown>): Promise<void> => {
    const next = queue.then(() => workspace.append("llm_calls", [row]));
    queue = next.catch(() => undefined);
    return next.then(
      () => undefined,
      (e) => {
        if (opts.onRecordError) opts.onRecordError(e);
        else throw e;
      },
    );
  };

  async function chat(request: ChatRequest): Promise<ChatResult> {
    const base = {
      call_id: newId(),
      run_id: request.runId ?? opts.runId ?? null,
      node_id: request.nodeId ?? null,
      operator: request.operator ?? null,
      purpose: request.purpose ?? opts.purpose ?? null,
      provider: model.provider,
      model: model.modelId,
      prompt_chars: promptChars(request.messages),
      prompt: storeText ? promptText(request.messages) : null,
      created_at: new Date(now()),
    };
    const t0 = now();
    let result: ChatResult;
    try {
      result = await model.chat(request);
    } catch (e) {
      await write({
        ...base,
        latency_ms: now() - t0,
        status: e instanceof LlmError ? e.kind : "error",
        error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
      });
      throw e;
    }
    const costUsd = callCostUsd(result.usage.promptTokens, result.usage.completionTokens, prices);
    await write({
      ...base,
      prompt_tokens: result.usage.promptTokens,
      completion_tokens: result.usage.completionTokens,
      tokens_source: result.usage.source,
      latency_ms: result.latencyMs,
      cost_usd: costUsd,
      status: "ok",
      completion: storeText ? result.text : null,
    });
    return { ...result, costUsd };
  }

  return { provider: model.provider, modelId: model.modelId, chat };
}
