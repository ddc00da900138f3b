import { KitError } from "../util/index.js";

/**
 * Typed failures of a language-model call, one class per kind. Every error names the endpoint
 * and model and says what to do; `cause` keeps the client's original error. `kind` is what the
 * llm_calls table records in its status column; `retryable` is what the retry loop reads.
 */
export type LlmErrorKind =
  | "rate_limited"
  | "server_error"
  | "timeout"
  | "connection"
  | "bad_request"
  | "auth"
  | "not_found"
  | "bad_response"
  | "aborted";

export abstract class LlmError extends KitError {
  abstract readonly kind: LlmErrorKind;
  abstract readonly retryable: boolean;
  /** How many attempts were made before this error was thrown (set by the retry loop). */
  attempts = 1;

  constructor(
    message: string,
    readonly endpoint: string,
    readonly model: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** HTTP 429: the endpoint asks us to slow down. Retried after Retry-After (or backoff). */
export class LlmRateLimitError extends LlmError {
  readonly kind = "rate_limited";
  readonly retryable = true;
  constructor(
    endpoint: string,
    model: string,
    readonly retryAfterMs: number | null,
    options?: { cause?: unknown },
  ) {
    super(
      `${endpoint} rate-limited model "${model}" (HTTP 429` +
        `${retryAfterMs !== null ? `, Retry-After ${Math.round(retryAfterMs)} ms` : ""}). ` +
        `Lower llm.concurrency, raise llm.maxRetries, or wait for the quota to reset.`,
      endpoint,
      model,
      options,
    );
  }
}

/** HTTP 5xx (and 408/409): the server failed. Retried with backoff. */
export class LlmServerError extends LlmError {
  readonly kind = "server_error";
  readonly retryable = true;
  constructor(
    endpoint: string,
    model: string,
    readonly status: number,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${endpoint} answered HTTP ${status} for model "${model}": ${detail}. ` +
        `The server failed; check its logs (vLLM/Ollama console) or retry later.`,
      endpoint,
      model,
      options,
    );
  }
}

/** No complete answer within llm.timeoutMs. Retried. */
export class LlmTimeoutError extends LlmError {
  readonly kind = "timeout";
  readonly retryable = true;
  constructor(
    endpoint: string,
    model: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(
      `${endpoint} did not answer model "${model}" within ${timeoutMs} ms. ` +
        `Raise llm.timeoutMs, lower llm.maxTokens, or check that the server is not overloaded.`,
      endpoint,
      model,
      options,
    );
  }
}

/** The endpoint could not be reached (refused, reset, DNS). Retried. */
export class LlmConnectionError extends LlmError {
  readonly kind = "connection";
  readonly retryable = true;
  constructor(endpoint: string, model: string, detail: string, options?: { cause?: unknown }) {
    super(
      `Cannot reach ${endpoint} (${detail}). Start the server (e.g. \`vllm serve ${model}\` or \`ollama serve\`) ` +
        `or fix llm.baseURL.`,
      endpoint,
      model,
      options,
    );
  }
}

/** HTTP 400/413/422: the request itself is wrong (context too long, bad parameter). Not retried. */
export class LlmBadRequestError extends LlmError {
  readonly kind = "bad_request";
  readonly retryable = false;
  constructor(
    endpoint: string,
    model: string,
    readonly status: number,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${endpoint} rejected the request for model "${model}" (HTTP ${status}): ${detail}. ` +
        `Fix the request: shorten the prompt, lower llm.maxTokens, or remove unsupported llm.extraBody fields.`,
      endpoint,
      model,
      options,
    );
  }
}

/** HTTP 401/403: bad or missing key. Not retried. */
export class LlmAuthError extends LlmError {
  readonly kind = "auth";
  readonly retryable = false;
  constructor(
    endpoint: string,
    model: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(
      `${endpoint} refused the API key for model "${model}" (HTTP ${status}). ` +
        `Set llm.apiKey or the environment variable named by llm.apiKeyEnv (default OPENAI_API_KEY).`,
      endpoint,
      model,
      options,
    );
  }
}

/** HTTP 404: unknown model or wrong path. Not retried. */
export class LlmNotFoundError extends LlmError {
  readonly kind = "not_found";
  readonly retryable = false;
  constructor(endpoint: string, model: string, detail: string, options?: { cause?: unknown }) {
    super(
      `${endpoint} does not know model "${model}" or the path (HTTP 404: ${detail}). ` +
        `Check llm.model against GET ${endpoint}/models and that llm.baseURL ends in /v1.`,
      endpoint,
      model,
      options,
    );
  }
}

/** A 2xx answer that is not a usable chat completion (malformed JSON, no choices). Retried. */
export class LlmBadResponseError extends LlmError {
  readonly kind = "bad_response";
  readonly retryable = true;
  constructor(endpoint: string, model: string, detail: string, options?: { cause?: unknown }) {
    super(
      `${endpoint} sent an unusable chat completion for model "${model}": ${detail}. ` +
        `Check that llm.baseURL points at an OpenAI-compatible /v1 endpoint (not a proxy's HTML page).`,
      endpoint,
      model,
      options,
    );
  }
}

/** The caller aborted the request through its AbortSignal. Not retried. */
export class LlmAbortedError extends LlmError {
  readonly kind = "aborted";
  readonly retryable = false;
  constructor(endpoint: string, model: string, options?: { cause?: unknown }) {
    super(`The call to ${endpoint} (model "${model}") was aborted by the caller.`, endpoint, model, options);
  }
}
