/**
 * Maps a provider's chat-completion body to the shared ChatResult, at the boundary: usage from
 * the provider when it reports one, else counted offline with the Qwen3 tokenizer; raw kept.
 */
import { LlmBadResponseError } from "./errors.js";
import { countChatTokens, countTextTokens } from "./qwen3-tokens.js";
import type { ChatMessage, ChatResult, ChatUsage } from "./spec.js";

export interface ResultContext {
  readonly endpoint: string;
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly latencyMs: number;
  readonly attempts: number;
}

interface RawCompletion {
  model?: unknown;
  choices?: unknown;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
}

export async function toChatResult(raw: unknown, c: ResultContext): Promise<ChatResult> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const shown = typeof raw === "string" ? `"${raw.slice(0, 80)}"` : String(raw);
    throw new LlmBadResponseError(c.endpoint, c.model, `the body is not a JSON object (got ${shown})`);
  }
  const body = raw as RawCompletion;
  if (!Array.isArray(body.choices) || body.choices.length === 0) {
    throw new LlmBadResponseError(c.endpoint, c.model, "the answer has no choices");
  }
  const choice = body.choices[0] as { message?: { content?: unknown }; finish_reason?: unknown };
  if (typeof choice?.message !== "object" || choice.message === null) {
    throw new LlmBadResponseError(c.endpoint, c.model, "choices[0] has no message");
  }
  const content = choice.message.content;
  const text = typeof content === "string" ? content : "";
  return {
    text,
    model: typeof body.model === "string" ? body.model : c.model,
    usage: await usageOf(body.usage, c.messages, text),
    latencyMs: c.latencyMs,
    finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : undefined,
    attempts: c.attempts,
    raw,
  };
}

async function usageOf(
  usage: RawCompletion["usage"],
  messages: readonly ChatMessage[],
  text: string,
): Promise<ChatUsage> {
  const p = usage?.prompt_tokens;
  const q = usage?.completion_tokens;
  if (typeof p === "number" && Number.isFinite(p) && typeof q === "number" && Number.isFinite(q)) {
    return { promptTokens: p, completionTokens: q, source: "provider" };
  }
  return {
    promptTokens: await countChatTokens(messages),
    completionTokens: await countTextTokens(text),
    source: "tokenizer",
  };
}
