import { z } from "zod";

/** Settings of the bounded normalised score. */
export const NormalizedScoreConfig = z
  .object({
    /**
     * [low, high] the ratio is clipped to. Default [−1, 2]: a task can move a mean over tasks by at most
     * (high − low) / n, so one task whose reference barely beats the trivial baseline (a ROC AUC of 0.5125
     * against 0.5 makes the ratio's unit 0.0125 AUC, and 0.11 AUC worth −31 units) cannot dominate the mean;
     * −1 = as far below the trivial baseline as the reference is above it, 2 = twice the reference's gain.
     */
    clip: z
      .tuple([z.number(), z.number()])
      .default([-1, 2])
      .refine(([lo, hi]) => lo < hi, "clip must be [low, high] with low < high")
      .describe("[low, high] the normalised score is clipped to"),
  })
  .strict();
export type NormalizedScoreConfig = z.infer<typeof NormalizedScoreConfig>;
export type NormalizedScoreConfigInput = z.input<typeof NormalizedScoreConfig>;

/**
 * Bounded normalised score for a task without a leaderboard, against two baselines the kit runs itself:
 *   trivial   = a constant prediction (majority class / training mean or median, per the task's metric),
 *   reference = a fixed simple model (e.g. logistic/linear regression or a small tree ensemble).
 * With dir = +1 when higher is better and −1 otherwise,
 *     ratio      = dir·(score − trivial) / (dir·(reference − trivial)) = (score − trivial)/(reference − trivial),
 *     normalized = min(high, max(low, ratio)),   [low, high] = config.clip, default [−1, 2],
 * so 0 = no better than the trivial baseline, 1 = as good as the reference model, up to 2 = twice the
 * reference's gain, down to −1 = worse than the trivial baseline by the reference's gain or more. The ratio form
 * is direction-free once both baselines are known; `higherIsBetter` is used to check that the reference really
 * beats the trivial baseline. Returns null when the score is missing or the baselines do not separate
 * (reference not better than trivial), because the ratio is then meaningless.
 */
export function normalizedScore(
  score: number | null | undefined,
  baselines: { readonly trivial: number; readonly reference: number },
  higherIsBetter: boolean,
  config: NormalizedScoreConfigInput = {},
): number | null {
  if (score === null || score === undefined || !Number.isFinite(score)) return null;
  const { trivial, reference } = baselines;
  if (!Number.isFinite(trivial) || !Number.isFinite(reference)) return null;
  const gain = (higherIsBetter ? 1 : -1) * (reference - trivial);
  if (gain <= 0) return null;
  return clipNormalized((score - trivial) / (reference - trivial), config);
}

/**
 * The clip alone: min(high, max(low, ratio)). For ratios stored before the score was bounded (issue 60): the clip
 * is a function of the ratio, so a stored unclipped ratio gives exactly the bounded score.
 */
export function clipNormalized(ratio: number, config: NormalizedScoreConfigInput = {}): number {
  const [lo, hi] = NormalizedScoreConfig.parse(config).clip;
  return Math.min(hi, Math.max(lo, ratio));
}

/** Settings of the weak-reference flag. */
export const WeakReferenceConfig = z
  .object({
    /** A reference that closes less than this share of the way from the trivial score to the perfect one is weak. */
    minShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.1)
      .describe("Share of the way from trivial to perfect the reference must close not to be weak"),
  })
  .strict();
export type WeakReferenceConfigInput = z.input<typeof WeakReferenceConfig>;

/**
 * Whether a task's reference is too weak for its normalised score to mean much:
 *     share = (reference − trivial) / (perfect − trivial),   weak = share < config.minShare (default 0.1),
 * the share of the way from the trivial score to the metric's perfect score (the value the answers score against
 * themselves: registry `best`, e.g. 1 for accuracy and ROC AUC, 0 for RMSE) the reference closes. Direction-free:
 * both differences carry the metric's sign. A reference no better than trivial (share ≤ 0) is weak. null when the
 * perfect score is unknown (a metric outside the registry), a value is not finite, or trivial already equals it.
 * Example: ROC AUC with trivial 0.5, reference 0.5125: share = 0.0125 / 0.5 = 0.025 → weak.
 */
export function weakReference(
  baselines: { readonly trivial: number; readonly reference: number },
  perfect: number | null | undefined,
  config: WeakReferenceConfigInput = {},
): boolean | null {
  const { trivial, reference } = baselines;
  if (perfect === null || perfect === undefined) return null;
  if (![trivial, reference, perfect].every(Number.isFinite) || perfect === trivial) return null;
  return (reference - trivial) / (perfect - trivial) < WeakReferenceConfig.parse(config).minShare;
}
