/** Numerically stable softmax of `u / temperature` (temperature > 0). */
export function softmax(u: readonly number[], temperature = 1): number[] {
  if (u.length === 0) return [];
  if (!(temperature > 0))
    throw new RangeError(
      `softmax: temperature must be > 0, got ${temperature}. Use a small positive value for near-greedy selection.`,
    );
  const scaled = u.map((x) => x / temperature);
  const max = Math.max(...scaled);
  const e = scaled.map((x) => Math.exp(x - max));
  const total = e.reduce((s, x) => s + x, 0);
  return e.map((x) => x / total);
}
