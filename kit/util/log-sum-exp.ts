/**
 * log Σ_i exp(z_i), shifted by the maximum so no term overflows:
 *
 *     lse(z) = m + log Σ_i exp(z_i − m),   m = max_i z_i
 *
 * Pure. The terms are summed left to right, so every caller gets bit-identical values (the grammar
 * policy's log-probabilities are replayed exactly from recorded runs). Empty input gives −∞.
 */
export function logSumExp(z: readonly number[]): number {
  const m = Math.max(...z);
  return m + Math.log(z.reduce((s, v) => s + Math.exp(v - m), 0));
}
