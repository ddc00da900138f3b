import type { Operator } from "../../policy/types.js";

/** Why a segment was accepted or rejected (stable codes, shown in notebooks and the CLI). The last two come from
 * the baseline filter (baseline-filter.ts), applied to an endpoint that acceptSegment accepted. */
export type AcceptanceReason =
  | "accepted"
  | "invalid-endpoint"
  | "no-gain-over-parent"
  | "no-gain-over-best-parent"
  | "below-threshold"
  | "validation-test-gap"
  | "no-test-score";

export interface AcceptanceInput {
  readonly operator: Exclude<Operator, "debug">;
  /** The endpoint's score; null when it has no valid score. */
  readonly endpoint: number | null;
  /** Scores of the start node's parents (Improve: one, Crossover: two); null = no valid score. */
  readonly parents: readonly (number | null)[];
  /** The score an endpoint must reach (a medal threshold, or the run's quantile). */
  readonly threshold: number;
  /** The endpoint score compared with the threshold when it differs from `endpoint` (leaderboards grade the test
   * score); default `endpoint`. */
  readonly thresholdScore?: number | null;
  readonly higherIsBetter: boolean;
}

/**
 * Acceptance of a segment (docs/paper-map.md: SFT collection), with s(x) = x when higher is better, −x otherwise:
 * 1. the endpoint has a valid (finite) score: the Draft rule;
 * 2. Improve: s(endpoint) > s(parent); Crossover: s(endpoint) > max(s(parent₁), s(parent₂));
 *    a parent without a valid score counts as −∞ (any valid endpoint beats it);
 * 3. s(thresholdScore ?? endpoint) ≥ s(threshold).
 */
export function acceptSegment(a: AcceptanceInput): {
  accepted: boolean;
  reason: Exclude<AcceptanceReason, "validation-test-gap" | "no-test-score">;
} {
  const s = (x: number | null): number => (x === null || !Number.isFinite(x) ? -Infinity : a.higherIsBetter ? x : -x);
  if (a.endpoint === null || !Number.isFinite(a.endpoint)) return { accepted: false, reason: "invalid-endpoint" };
  const e = s(a.endpoint);
  if (a.operator !== "draft") {
    const best = Math.max(-Infinity, ...a.parents.map(s));
    if (!(e > best))
      return {
        accepted: false,
        reason: a.operator === "crossover" ? "no-gain-over-best-parent" : "no-gain-over-parent",
      };
  }
  const t = a.thresholdScore === undefined ? e : s(a.thresholdScore);
  if (!(t >= s(a.threshold))) return { accepted: false, reason: "below-threshold" };
  return { accepted: true, reason: "accepted" };
}

/**
 * The quantile threshold for tasks without a leaderboard: the score that the best `topShare` of the
 * run's valid scores reach. With s as above and Q the linear-interpolation quantile (type 7) of the
 * s-values, t = s⁻¹(Q(1 − topShare)). Returns null when there are no valid scores.
 */
export function quantileThreshold(
  scores: readonly (number | null)[],
  topShare: number,
  higherIsBetter: boolean,
): number | null {
  if (!(topShare > 0 && topShare <= 1)) throw new RangeError(`topShare must be in (0, 1], got ${topShare}`);
  const s = scores
    .filter((x): x is number => x !== null && Number.isFinite(x))
    .map((x) => (higherIsBetter ? x : -x))
    .sort((a, b) => a - b);
  if (s.length === 0) return null;
  const h = (s.length - 1) * (1 - topShare);
  const lo = Math.floor(h);
  const q = s[lo]! + (h - lo) * (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!);
  return higherIsBetter ? q : -q;
}
