// softmax is shared with kit/report (selection-probability figures), so it lives in kit/util.
export { softmax } from "../util/softmax.js";

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
  for (let s = 0; s < n;) {
    let e = s;
    while (e + 1 < n && order[e + 1]!.v === order[s]!.v) e++;
    const pos = (s + e) / 2 / (n - 1);
    for (let k = s; k <= e; k++) out[order[k]!.i] = pos;
    s = e + 1;
  }
  return out;
}
