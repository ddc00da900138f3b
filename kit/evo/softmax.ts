/** Numerically stable softmax of `u / temperature` (temperature > 0). */
export function softmax(u: readonly number[], temperature = 1): number[] {
  if (u.length === 0) return [];
  if (!(temperature > 0)) throw new RangeError(`softmax: temperature must be > 0, got ${temperature}. Use a small positive value for near-greedy selection.`);
  const scaled = u.map((x) => x / temperature);
  const max = Math.max(...scaled);
  const e = scaled.map((x) => Math.exp(x - max));
  const total = e.reduce((s, x) => s + x, 0);
  return e.map((x) => x / total);
}

/** Min-max to [0, 1]; all-equal (or a single value) → `constant` for every entry. */
export function minMax(values: readonly number[], constant = 0.5): number[] {
  if (values.length === 0) return [];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (!(hi > lo)) return values.map(() => constant);
  return values.map((v) => (v - lo) / (hi - lo));
}

/** Rank-based normalisation: best → 1, worst → 0, ties share the mean of their positions. */
export function rankNormalise(values: readonly number[], constant = 0.5): number[] {
  const n = values.length;
  if (n <= 1) return values.map(() => constant);
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const out = new Array<number>(n);
  for (let s = 0; s < n; ) {
    let e = s;
    while (e + 1 < n && order[e + 1]!.v === order[s]!.v) e++;
    const pos = (s + e) / 2 / (n - 1);
    for (let k = s; k <= e; k++) out[order[k]!.i] = pos;
    s = e + 1;
  }
  return out;
}
