import { gapScale } from "../rl/index.js";

/** Why the baseline filter let a candidate through or not (stable codes, shown in notebooks and the CLI). */
export type BaselineFilterReason = "pass" | "off" | "no-validation" | "no-test-score" | "validation-test-gap";

export interface BaselineFilterInput {
  /** The program's printed `Final Validation Score:`; null when it printed none (or an impossible one). */
  readonly validScore: number | null;
  /** The graded score of its submission (the task's hidden metric); null when it was not graded. */
  readonly testScore: number | null;
  /** The metric's theoretical range when it has one (kit/erl/rl's METRIC_RANGES), else null. */
  readonly metricRange?: number | null;
  /** max − min of the task's leaderboard scores when it has a leaderboard, else null. */
  readonly leaderboardRange?: number | null;
}

/** Smallest scale: with both scores 0 the gap is 0, any other pair at scale 0 counts as a huge gap. */
const EPS = 1e-12;

/**
 * The relative validation–test difference of one candidate:
 *   d = |test − valid| / max(scale, ε),   ε = 1e-12,
 *   scale = kit/erl/rl's gapScale: the metric's theoretical range when it is at most 2 (accuracy, AUC, F1: 1;
 *           QWK: 2), else the leaderboard's score range, else max(|test|, |valid|).
 * Why this scale and not max(|test|, |valid|) alone: a bounded metric near 0 (AUC 0.03 vs 0.05, QWK 0.01
 * vs −0.02) would otherwise count as a 40–300 % gap though the two agree to a few hundredths of the metric's
 * range; dividing by the range makes 12 % mean "12 % of what the metric can move". An unbounded metric
 * (RMSE, MAE, log loss) has no range, so the leaderboard's spread is the yardstick, and only without a
 * leaderboard the larger of the two magnitudes (symmetric, never above 2, finite when one score is 0).
 * It is also the very g of RL's validation–test gap penalty (same 0.12 tolerance), so SFT's filter and
 * RL's penalty measure one gap and cannot drift apart. Null when either score is missing or not finite.
 */
export function validationTestGap(i: BaselineFilterInput): number | null {
  const { validScore: v, testScore: t } = i;
  if (v === null || t === null || !Number.isFinite(v) || !Number.isFinite(t)) return null;
  const scale = gapScale({ test: t, validation: v, metricRange: i.metricRange, leaderboardRange: i.leaderboardRange });
  return Math.abs(t - v) / Math.max(scale, EPS);
}

/**
 * The reference collector's baseline filter (docs/paper-map.md: SFT collection), for parallel-path drafts
 * and evolutionary-segment endpoints: keep a candidate only if d ≤ maxGap (d = validationTestGap above).
 * 1. maxGap null or 0 → the filter is off: every candidate passes ("off");
 * 2. no printed validation → dropped ("no-validation"): the example would teach a program that breaks
 *    the task's output contract, and its printed claim cannot be checked;
 * 3. no graded test score → dropped ("no-test-score"): what the filter keeps is a validation that the
 *    grading confirmed, and an ungraded one is unconfirmed (the reference grades every candidate, so
 *    for it a missing test score is a failed candidate);
 * 4. d > maxGap → dropped ("validation-test-gap"); else "pass".
 */
export function baselineFilter(
  i: BaselineFilterInput,
  maxGap: number | null,
): { readonly pass: boolean; readonly gap: number | null; readonly reason: BaselineFilterReason } {
  const gap = validationTestGap(i);
  if (maxGap === null || maxGap === 0) return { pass: true, gap, reason: "off" };
  if (i.validScore === null || !Number.isFinite(i.validScore)) return { pass: false, gap, reason: "no-validation" };
  if (i.testScore === null || !Number.isFinite(i.testScore)) return { pass: false, gap, reason: "no-test-score" };
  if (gap! > maxGap) return { pass: false, gap, reason: "validation-test-gap" };
  return { pass: true, gap, reason: "pass" };
}
