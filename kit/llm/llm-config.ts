import { z } from "zod";
import { MAX_TIMER_MS, timerLimitMessage } from "../util/timer-limit.js";

/**
 * An OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, the replay server). Keys do not
 * belong in config files: runs store their config, so leave `apiKey` empty and use the env var.
 */
export const LlmConfig = z.object({
  baseURL: z
    .string()
    .default("http://127.0.0.1:8000/v1")
    .describe(
      "Base URL of the OpenAI-compatible API, ending in /v1 (vLLM: http://127.0.0.1:8000/v1, Ollama: " +
        "http://127.0.0.1:11434/v1).",
    ),
  model: z
    .string()
    .default("Qwen/Qwen3-8B")
    .describe("Model id sent with every request (must be served by the endpoint)."),
  apiKey: z
    .string()
    .default("")
    .describe("API key. Empty: read the variable named by apiKeyEnv, else 'EMPTY' (what vLLM and Ollama accept)."),
  apiKeyEnv: z
    .string()
    .default("OPENAI_API_KEY")
    .describe("Environment variable holding the API key when apiKey is empty."),
  temperature: z.number().min(0).max(2).default(0.7).describe("Sampling temperature (a request may override it)."),
  maxTokens: z
    .number()
    .int()
    .positive()
    .default(4096)
    .describe("Most completion tokens per call (a request may override it)."),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(MAX_TIMER_MS, timerLimitMessage("ms"))
    .default(180_000)
    .describe("Per-attempt limit in ms for the whole answer; a slower attempt is a timeout."),
  maxRetries: z
    .number()
    .int()
    .min(0)
    .default(4)
    .describe("Retries after the first attempt for 429, 5xx, timeouts, connection errors and malformed replies."),
  retryBaseDelayMs: z
    .number()
    .min(0)
    .default(500)
    .describe("Backoff before retry k is base·2^k ms (with jitter), capped by retryMaxDelayMs."),
  retryMaxDelayMs: z
    .number()
    .min(0)
    .max(MAX_TIMER_MS, timerLimitMessage("ms"))
    .default(30_000)
    .describe("Upper bound of one backoff delay in ms."),
  maxRetryAfterMs: z
    .number()
    .min(0)
    .max(MAX_TIMER_MS, timerLimitMessage("ms"))
    .default(120_000)
    .describe("Upper bound in ms on a server's Retry-After before retrying a 429."),
  concurrency: z
    .number()
    .int()
    .positive()
    .default(4)
    .describe("Most requests in flight at once per model instance (a shared semaphore)."),
  promptPricePerMTok: z
    .number()
    .min(0)
    .default(0)
    .describe("USD per 1M prompt tokens, for cost_usd in llm_calls (0 for local models)."),
  completionPricePerMTok: z
    .number()
    .min(0)
    .default(0)
    .describe("USD per 1M completion tokens, for cost_usd in llm_calls (0 for local models)."),
  extraBody: z
    .record(z.string(), z.unknown())
    .default({})
    .describe(
      'Extra JSON fields merged into every request body, e.g. {"chat_template_kwargs": ' +
        '{"enable_thinking": false}} for Qwen3 on vLLM.',
    ),
});
export type LlmConfig = z.infer<typeof LlmConfig>;
export type LlmConfigInput = z.input<typeof LlmConfig>;

/** The key actually sent: explicit, else the env var, else "EMPTY" (local servers ignore it). */
export function resolveApiKey(
  config: Pick<LlmConfig, "apiKey" | "apiKeyEnv">,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (config.apiKey) return config.apiKey;
  const fromEnv = env[config.apiKeyEnv];
  return fromEnv && fromEnv.length > 0 ? fromEnv : "EMPTY";
}
