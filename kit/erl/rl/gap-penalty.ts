import { z } from "zod";

/**
 * Validation–test gap penalty (spec §3.2, reference code). What is rewarded is the graded test score;
 * a program whose printed validation does not predict it earns less:
 *   g = |test − validation| / scale,
 *   scale = the metric's theoretical range when it is at most 2, else the leaderboard's score range,
 *           else max(|test|, |validation|);
 *   factor = max(0, 1 − coefficient · (g / tolerance))   (coefficient 0.05, tolerance 0.12);
 *   a positive reward r becomes r · factor; rewards ≤ 0 are left alone.
 * No printed validation (or scale 0) → g is unknown (null) and factor = 1.
 */
export const GapPenaltyOptions = z
  .object({
    coefficient: z
      .number()
      .min(0)
      .default(0.05)
      .describe("Penalty per tolerance unit of relative gap (0 disables the penalty)."),
    tolerance: z
      .number()
      .positive()
      .default(0.12)
      .describe("Relative validation–test gap that costs `coefficient` of the reward."),
  })
  .strict();
export type GapPenaltyOptions = z.input<typeof GapPenaltyOptions>;

/** Theoretical range of the kit's metrics that are bounded (accuracy-like [0, 1], QWK [−1, 1]); others are unbounded.
 */
export const METRIC_RANGES: Readonly<Record<string, number>> = {
  accuracy: 1,
  macro_f1: 1,
  roc_auc: 1,
  roc_auc_ovr: 1,
  map_at_k: 1,
  qwk: 2,
};

export interface GapInput {
  readonly test: number;
  readonly validation: number | null;
  /** METRIC_RANGES[metric], when the metric has one. */
  readonly metricRange?: number | null;
  /** max − min of the task's leaderboard scores, when it has a leaderboard. */
  readonly leaderboardRange?: number | null;
}

export interface GapPenalty {
  /** Relative gap g; null when there is no finite validation score or the scale is 0. */
  readonly gap: number | null;
  readonly factor: number;
}

export function gapScale(i: GapInput): number {
  if (i.metricRange != null && i.metricRange > 0 && i.metricRange <= 2) return i.metricRange;
  if (i.leaderboardRange != null && i.leaderboardRange > 0) return i.leaderboardRange;
  return Math.max(Math.abs(i.test), Math.abs(i.validation ?? 0));
}

export function gapPenalty(i: GapInput, opts: GapPenaltyOptions = {}): GapPenalty {
  const o = GapPenaltyOptions.parse(opts);
  if (i.validation === null || !Number.isFinite(i.validation) || !Number.isFinite(i.test))
    return { gap: null, factor: 1 };
  const scale = gapScale(i);
  if (!(scale > 0)) return { gap: null, factor: 1 };
  const gap = Math.abs(i.test - i.validation) / scale;
  return { gap, factor: Math.max(0, 1 - o.coefficient * (gap / o.tolerance)) };
}

/** r · factor for r > 0, r otherwise. */
export function penaliseReward(reward: number, factor: number): number {
  return reward > 0 ? reward * factor : reward;
}
