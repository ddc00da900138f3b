/**
 * The OpenAI-compatible provider: the `openai` 6.x client pointed at any /v1 endpoint (OpenAI,
 * vLLM, Ollama, the replay server). The client's own retries are off; this file retries 429
 * (honouring Retry-After), 5xx, timeouts, connection errors and malformed replies with jittered
 * exponential backoff, and never retries 400/401/403/404. A semaphore per model instance bounds
 * the requests in flight; it is released while waiting between retries.
 */
import OpenAI from "openai";
import { retryDelayMs } from "./backoff.js";
import { toChatResult } from "./chat-result.js";
import { classifyError } from "./classify-error.js";
import { LlmAbortedError, LlmRateLimitError, type LlmError } from "./errors.js";
import { LlmConfig, resolveApiKey, type LlmConfigInput } from "./llm-config.js";
import { Semaphore } from "./semaphore.js";
import type { ChatRequest, ChatResult, LanguageModel } from "./spec.js";

/** Emitted before each retry: what failed, which retry comes next, how long we wait. */
export interface RetryEvent {
  readonly error: LlmError;
  readonly retry: number;
  readonly delayMs: number;
}

/** Injectable clock, randomness and sleep (tests and simulations); defaults are the real ones. */
export interface OpenAIModelDeps {
  readonly now?: () => number;
  readonly random?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly onRetry?: (event: RetryEvent) => void;
}

export interface OpenAIModel extends LanguageModel {
  readonly config: LlmConfig;
  /** The concurrency limit shared by every call on this instance. */
  readonly semaphore: Semaphore;
}

export function createOpenAIModel(input: LlmConfigInput = {}, deps: OpenAIModelDeps = {}): OpenAIModel {
  const config = LlmConfig.parse(input);
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? abortableSleep;
  const endpoint = config.baseURL.replace(/\/+$/, "");
  const semaphore = new Semaphore(config.concurrency);
  const client = new OpenAI({
    baseURL: endpoint,
    apiKey: resolveApiKey(config),
    maxRetries: 0,
    timeout: config.timeoutMs,
  });

  // One HTTP attempt under our own deadline (which, unlike the client's, also covers the body).
  async function attempt(request: ChatRequest): Promise<{ raw: unknown; ms: number }> {
    const deadline = AbortSignal.timeout(config.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
    const t0 = now();
    try {
      const body = {
        ...config.extraBody,
        model: config.model,
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        temperature: request.temperature ?? config.temperature,
        max_tokens: request.maxTokens ?? config.maxTokens,
        stream: false as const,
      };
      const raw: unknown = await client.chat.completions.create(body as OpenAI.ChatCompletionCreateParamsNonStreaming, {
        signal,
      });
      return { raw, ms: now() - t0 };
    } catch (e) {
      throw classifyError(e, {
        endpoint,
        model: config.model,
        timeoutMs: config.timeoutMs,
        timedOut: deadline.aborted && !request.signal?.aborted,
        callerAborted: request.signal?.aborted ?? false,
        nowMs: now(),
      });
    }
  }

  async function chat(request: ChatRequest): Promise<ChatResult> {
    const started = now();
    let queued = 0; // time spent waiting for a concurrency slot is not model time
    for (let retry = 0; ; retry++) {
      if (request.signal?.aborted) throw new LlmAbortedError(endpoint, config.model);
      const w0 = now();
      const release = await semaphore.acquire();
      queued += now() - w0;
      try {
        const { raw } = await attempt(request);
        return await toChatResult(raw, {
          endpoint,
          model: config.model,
          messages: request.messages,
          latencyMs: now() - started - queued,
          attempts: retry + 1,
        });
      } catch (e) {
        const err = classifyError(e, {
          endpoint,
          model: config.model,
          timeoutMs: config.timeoutMs,
          timedOut: false,
          callerAborted: false,
          nowMs: now(),
        });
        err.attempts = retry + 1;
        if (!err.retryable || retry >= config.maxRetries) throw err;
        release();
        const retryAfter = err instanceof LlmRateLimitError ? err.retryAfterMs : null;
        const delayMs = retryDelayMs(retry, retryAfter, config, random());
        deps.onRetry?.({ error: err, retry: retry + 1, delayMs });
        try {
          await sleep(delayMs, request.signal);
        } catch (abort) {
          throw new LlmAbortedError(endpoint, config.model, { cause: abort });
        }
      } finally {
        release();
      }
    }
  }

  return { provider: "openai", modelId: config.model, config, semaphore, chat };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
