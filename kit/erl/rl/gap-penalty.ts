import { z } from "zod";

/**
 * Validation–test gap penalty (docs/paper-map.md: RL mechanisms, reference code). What is rewarded is the graded
 * test score; a program whose printed validation does not predict it earns less:
 *   g = |test − validation| / scale,
 *   scale = the metric's theoretical range when it is at most 2, else the leaderboard's score range when it
 *           is at most `absoluteAbove` (100), else max(|test|, |validation|);
 *   factor = max(0, 1 − coefficient · (g / tolerance))   (coefficient 0.05, tolerance 0.12) when `enabled`,
 *            else 1;
 *   a positive reward r becomes r · factor; rewards ≤ 0 are left alone.
 * No printed validation (or scale 0) → g is unknown (null) and factor = 1. g is computed (and stored) even
 * when the penalty is off. Default off: the reference's released RL scripts set
 * VALIDATION_TEST_GAP_PENALTY_ENABLED=0; the paper's text (and the kit before) applied it: `enabled: true`.
 */
export const GapPenaltyOptions = z
  .object({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        "Apply the penalty (the reference's released RL scripts: off; the paper's text and the earlier " +
          "kit: on, with coefficient 0.05 and tolerance 0.12).",
      ),
    coefficient: z
      .number()
      .min(0)
      .default(0.05)
      .describe("Penalty per tolerance unit of relative gap, when enabled (paper 0.05; 0 also disables it)."),
    tolerance: z
      .number()
      .positive()
      .default(0.12)
      .describe("Relative validation–test gap that costs `coefficient` of the reward (paper 0.12)."),
    absoluteAbove: z
      .number()
      .positive()
      .default(100)
      .describe("A leaderboard range above this is no scale: the larger absolute score is (reference 100)."),
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

/** The scale of g (see above): metric range ≤ 2, else leaderboard range ≤ absoluteAbove, else max(|test|, |val|). */
export function gapScale(i: GapInput, absoluteAbove = 100): number {
  if (i.metricRange != null && i.metricRange > 0 && i.metricRange <= 2) return i.metricRange;
  if (i.leaderboardRange != null && i.leaderboardRange > 0 && i.leaderboardRange <= absoluteAbove)
    return i.leaderboardRange;
  return Math.max(Math.abs(i.test), Math.abs(i.validation ?? 0));
}

export function gapPenalty(i: GapInput, opts: GapPenaltyOptions = {}): GapPenalty {
  const o = GapPenaltyOptions.parse(opts);
  if (i.validation === null || !Number.isFinite(i.validation) || !Number.isFinite(i.test))
    return { gap: null, factor: 1 };
  const scale = gapScale(i, o.absoluteAbove);
  if (!(scale > 0)) return { gap: null, factor: 1 };
  const gap = Math.abs(i.test - i.validation) / scale;
  return { gap, factor: o.enabled ? Math.max(0, 1 - o.coefficient * (gap / o.tolerance)) : 1 };
}

/** r · factor for r > 0, r otherwise. */
export function penaliseReward(reward: number, factor: number): number {
  return reward > 0 ? reward * factor : reward;
}
