/**
 * The longest wait a Node timer honours: setTimeout takes a signed 32-bit millisecond count, and
 * anything larger (1e12 s as 1e15 ms) is replaced by 1 ms with only a warning, so a "practically
 * infinite" timeout would fire at once. Config schemas and the CLI reject longer limits.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** MAX_TIMER_MS in whole seconds: 2,147,483 s, about 24.8 days. */
export const MAX_TIMER_S = Math.floor(MAX_TIMER_MS / 1000);

/** The message of a limit past what a timer can wait, for schemas and CLI flags. */
export function timerLimitMessage(unit: "s" | "ms"): string {
  const max = unit === "s" ? MAX_TIMER_S : MAX_TIMER_MS;
  return (
    `must be at most ${max.toLocaleString("en-US")} ${unit} (about 24.8 days): Node timers ` +
    `cannot wait longer, and a larger value would fire at once`
  );
}
