import { z } from "zod";
import { boundedReward, signedScore } from "./adaptive-bounds.js";

/**
 * Parent bonus and parent copies (the paper's code generate_mle.py; docs/paper-map.md: RL mechanisms).
 * For a non-Draft candidate (improve, debug, crossover: a group with parents), after the gap factor:
 * 1. r_parent = clip((s̃_p − W)/(B − W), 0, 1)^α: the parent's signed graded test score s̃_p on the SAME
 *    group's bounds [W, B], so child and parent are on one scale; a parent without a finite graded score
 *    (failed, flagged, unknown) counts as 0; Crossover: the better (max) of its parents;
 * 2. r' = r + coefficient · max(0, r − r_parent)   (coefficient 0.5; r is the gap-processed reward);
 * 3. a candidate whose code equals a parent's (after normaliseCode) gets r' = 0 (neither bonus nor base).
 * Drafts (no parents) keep r. The hack reward (−0.5) still replaces r' afterwards.
 * The paper's text and the kit before this rule had neither the bonus nor the copy rule
 * (`coefficient: 0, zeroCopies: false` gives that back).
 */
export const ParentBonusOptions = z
  .object({
    coefficient: z
      .number()
      .min(0)
      .default(0.5)
      .describe(
        "r' = r + coefficient · max(0, r − r_parent) for Improve/Debug/Crossover candidates (reference code " +
          "0.5; the paper's text and the earlier kit: 0, no bonus).",
      ),
    zeroCopies: z
      .boolean()
      .default(true)
      .describe(
        "A candidate whose code equals its parent's (line endings and trailing whitespace normalised) gets " +
          "reward 0 (reference code; the earlier kit: false, a copy was rewarded like any program).",
      ),
  })
  .strict();
export type ParentBonusOptions = z.input<typeof ParentBonusOptions>;

/** What groupRewards knows of a group's parent: its program and its graded test score (null: none). */
export interface ParentOutcome {
  readonly code: string;
  /** The parent's graded test score (raw, not signed); null when it failed, was flagged or is unknown. */
  readonly testScore: number | null;
}

/** Code as compared for copies: "\r\n" and "\r" → "\n", each line's trailing whitespace and the end's removed. */
export function normaliseCode(code: string): string {
  return code
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trimEnd();
}

/** True when `code` equals one of the parents' codes after normaliseCode. */
export function copiesParent(code: string, parents: readonly ParentOutcome[]): boolean {
  const c = normaliseCode(code);
  return parents.some((p) => normaliseCode(p.code) === c);
}

/** Step 1: max over the parents of their reward on the group's bounds; 0 without parents or bounds. */
export function parentReward(
  parents: readonly ParentOutcome[],
  higherIsBetter: boolean,
  best: number | null,
  worst: number | null,
  alpha = 1,
): number {
  if (best === null || worst === null) return 0;
  return Math.max(
    0,
    ...parents.map((p) => boundedReward(signedScore(p.testScore, higherIsBetter), best, worst, alpha)),
  );
}

/** Step 2's bonus: coefficient · max(0, r − rParent) (the candidate's reward becomes r + this). */
export function parentBonus(r: number, rParent: number, coefficient: number): number {
  return coefficient * Math.max(0, r - rParent);
}
