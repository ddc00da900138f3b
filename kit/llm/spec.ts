/**
 * The language-model provider spec: types only, versioned, no implementation. Providers
 * (openai-provider.ts, ...) implement `LanguageModel`; callers (policy, gym's semantic gate,
 * evo's memory synthesis) depend only on this file.
 */
export const LLM_SPEC_VERSION = 1;

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
  /** What the call is for, recorded in llm_calls: operator | memory | judge | quality_gate. */
  readonly purpose?: string;
  readonly runId?: string;
  readonly nodeId?: string;
  readonly operator?: string;
}

export interface ChatUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** provider: reported by the endpoint; tokenizer: counted offline with the Qwen3 tokenizer. */
  readonly source: "provider" | "tokenizer";
}

export interface ChatResult {
  readonly text: string;
  readonly model: string;
  readonly usage: ChatUsage;
  readonly latencyMs: number;
  readonly finishReason?: string;
  /** The provider's raw response, kept for debugging. */
  readonly raw?: unknown;
  /** Attempts made, retries included (1 when the first attempt succeeded). */
  readonly attempts?: number;
  /** Cost in USD at the configured token prices (set by recordingModel). */
  readonly costUsd?: number;
}

export interface LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  chat(request: ChatRequest): Promise<ChatResult>;
}
