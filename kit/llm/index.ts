// kit/llm: the language-model provider spec, the OpenAI-compatible provider, offline token
// counting (Qwen3), call recording into llm_calls, and a replay server for tests and benchmarks.
export {
  LLM_SPEC_VERSION, type ChatMessage, type ChatRequest, type ChatResult, type ChatUsage, type LanguageModel,
} from "./spec.js";
export { createOpenAIModel, type OpenAIModel, type OpenAIModelDeps, type RetryEvent } from "./openai-provider.js";
export { LlmConfig, resolveApiKey, type LlmConfigInput } from "./llm-config.js";
export { recordingModel, promptText, promptChars, type RecordingOptions } from "./recording-model.js";
export { loadLlmCalls, summarizeLlmCalls, type LlmCallRow, type LlmCallSummary } from "./llm-store.js";
export {
  startReplayServer, replies, type ReplayServer, type ReplayReply, type ReplayRequest, type ReplayScript,
  type ReplayServerOptions,
} from "./replay-server.js";
export { countChatTokens, countTextTokens, renderQwen3Chat, qwen3Tokenizer } from "./qwen3-tokens.js";
export { backoffDelayMs, parseRetryAfterMs, retryDelayMs, type BackoffSettings } from "./backoff.js";
export { callCostUsd, type TokenPrices } from "./cost.js";
export { Semaphore } from "./semaphore.js";
export {
  LlmError, LlmRateLimitError, LlmServerError, LlmTimeoutError, LlmConnectionError, LlmBadRequestError, LlmAuthError,
  LlmNotFoundError, LlmBadResponseError, LlmAbortedError, type LlmErrorKind,
} from "./errors.js";
