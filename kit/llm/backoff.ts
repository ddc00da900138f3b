/**
 * Retry timing as pure functions (clock and randomness passed in).
 *
 * Backoff before retry k (k = 0 for the first retry) is "equal jitter":
 *   d = min(maxMs, baseMs · 2^k);  delay = d/2 + u · d/2,  u ∈ [0, 1).
 * A 429 with Retry-After waits what the server asked for (capped by maxRetryAfterMs), never less.
 */
export interface BackoffSettings {
  readonly retryBaseDelayMs: number;
  readonly retryMaxDelayMs: number;
  readonly maxRetryAfterMs: number;
}

export function backoffDelayMs(
  retryIndex: number,
  s: Pick<BackoffSettings, "retryBaseDelayMs" | "retryMaxDelayMs">,
  u: number,
): number {
  const d = Math.min(s.retryMaxDelayMs, s.retryBaseDelayMs * 2 ** retryIndex);
  return d / 2 + u * (d / 2);
}

/**
 * Milliseconds a server asked us to wait: `retry-after-ms` (float ms), else `Retry-After` as
 * seconds or an HTTP date (relative to `nowMs`). null when absent or unreadable.
 */
export function parseRetryAfterMs(
  retryAfter: string | null | undefined,
  retryAfterMs: string | null | undefined,
  nowMs: number,
): number | null {
  if (retryAfterMs != null && retryAfterMs.trim() !== "") {
    const ms = Number(retryAfterMs);
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  if (retryAfter == null || retryAfter.trim() === "") return null;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : null;
  const at = Date.parse(retryAfter);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : null;
}

/** Delay before retry k: the server's Retry-After when given (capped), else jittered backoff. */
export function retryDelayMs(retryIndex: number, retryAfterMs: number | null, s: BackoffSettings, u: number): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, s.maxRetryAfterMs);
  return backoffDelayMs(retryIndex, s, u);
}
