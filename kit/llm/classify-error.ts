/**
 * Maps whatever the `openai` client threw into one typed LlmError (errors.ts), at the boundary,
 * keeping the original as `cause`.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { parseRetryAfterMs } from "./backoff.js";
import {
  LlmAbortedError,
  LlmAuthError,
  LlmBadRequestError,
  LlmBadResponseError,
  LlmConnectionError,
  LlmError,
  LlmNotFoundError,
  LlmRateLimitError,
  LlmServerError,
  LlmTimeoutError,
} from "./errors.js";

export interface ClassifyContext {
  readonly endpoint: string;
  readonly model: string;
  readonly timeoutMs: number;
  /** Our own per-attempt deadline fired (it also covers reading the body). */
  readonly timedOut: boolean;
  /** The caller's AbortSignal fired. */
  readonly callerAborted: boolean;
  readonly nowMs: number;
}

export function classifyError(e: unknown, c: ClassifyContext): LlmError {
  const { endpoint, model } = c;
  if (e instanceof LlmError) return e;
  if (c.callerAborted) return new LlmAbortedError(endpoint, model, { cause: e });
  if (c.timedOut || e instanceof APIConnectionTimeoutError)
    return new LlmTimeoutError(endpoint, model, c.timeoutMs, { cause: e });
  if (e instanceof APIUserAbortError) return new LlmAbortedError(endpoint, model, { cause: e });
  if (e instanceof APIConnectionError) {
    const cause = (e as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `${cause.message}${codeOf(cause)}` : e.message;
    return new LlmConnectionError(endpoint, model, detail, { cause: e });
  }
  if (e instanceof APIError && typeof e.status === "number") {
    const status = e.status;
    const detail = detailOf(e);
    if (status === 429) {
      const h = e.headers;
      const retryAfter = parseRetryAfterMs(h?.get("retry-after"), h?.get("retry-after-ms"), c.nowMs);
      return new LlmRateLimitError(endpoint, model, retryAfter, { cause: e });
    }
    if (status === 401 || status === 403) return new LlmAuthError(endpoint, model, status, { cause: e });
    if (status === 404) return new LlmNotFoundError(endpoint, model, detail, { cause: e });
    if (status >= 500 || status === 408 || status === 409)
      return new LlmServerError(endpoint, model, status, detail, { cause: e });
    return new LlmBadRequestError(endpoint, model, status, detail, { cause: e });
  }
  // response.json() on a body that is not JSON.
  if (e instanceof SyntaxError)
    return new LlmBadResponseError(endpoint, model, `the body is not valid JSON (${e.message})`, { cause: e });
  throw e; // anything else is a bug in the kit: keep its stack
}

function detailOf(e: APIError): string {
  const err = e.error as { message?: unknown } | undefined;
  const msg = typeof err?.message === "string" ? err.message : e.message;
  return msg.length > 300 ? `${msg.slice(0, 300)}…` : msg;
}

function codeOf(e: Error): string {
  const inner = (e as { cause?: { code?: unknown } }).cause?.code ?? (e as { code?: unknown }).code;
  return typeof inner === "string" ? ` [${inner}]` : "";
}
