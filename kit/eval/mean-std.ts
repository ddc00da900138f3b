/**
 * Mean ± standard deviation, as avg@k is reported:
 *   std = sqrt(Σ (v − mean)² / (n − ddof)),
 * ddof 0 (population, the default: the paper's tables spread avg@k so) or 1 (sample); 0 for a single value.
 */
export interface MeanStd {
  readonly mean: number;
  readonly std: number;
  readonly n: number;
}

export function meanStd(values: readonly number[], opts: { readonly ddof?: 0 | 1 } = {}): MeanStd {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, std: Number.NaN, n: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const ddof = opts.ddof ?? 0;
  const std = n > ddof && n > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - ddof)) : 0;
  return { mean, std, n };
}

/** Nearest-rank-with-interpolation percentile (linear between order statistics, like numpy's default). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be in [0, 100], got ${p}`);
  const s = [...values].sort((a, b) => a - b);
  const h = ((s.length - 1) * p) / 100;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
}
