/**
 * Normalised score for a task without a leaderboard, against two baselines the kit runs itself:
 *   trivial   = a constant prediction (majority class / training mean or median, per the task's metric),
 *   reference = a fixed simple model (e.g. logistic/linear regression or a small tree ensemble).
 * With dir = +1 when higher is better and −1 otherwise,
 *     normalized = dir·(score − trivial) / (dir·(reference − trivial)) = (score − trivial)/(reference − trivial),
 * so 0 = no better than the trivial baseline, 1 = as good as the reference model, > 1 = better than it,
 * < 0 = worse than the trivial baseline. The ratio form is direction-free once both baselines are known;
 * `higherIsBetter` is used to check that the reference really beats the trivial baseline.
 * Returns null when the score is missing or the baselines do not separate (reference not better than
 * trivial), because the ratio is then meaningless.
 */
export function normalizedScore(
  score: number | null | undefined,
  baselines: { readonly trivial: number; readonly reference: number },
  higherIsBetter: boolean,
): number | null {
  if (score === null || score === undefined || !Number.isFinite(score)) return null;
  const { trivial, reference } = baselines;
  if (!Number.isFinite(trivial) || !Number.isFinite(reference)) return null;
  const gain = (higherIsBetter ? 1 : -1) * (reference - trivial);
  if (gain <= 0) return null;
  return (score - trivial) / (reference - trivial);
}
