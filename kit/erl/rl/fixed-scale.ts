import { z } from "zod";
import { boundedReward, signedScore } from "./adaptive-bounds.js";

/**
 * Where a task's static worst bound comes from, and the fixed scale every arm's rewards can be read on.
 *
 * Static worst bound (signed: higher is better):
 *   W_static = the leaderboard's last-placed team when the task has a leaderboard (leaderboard-bounds.ts),
 *              else s̃(trivial) = the signed graded test score of kit/eval's trivial baseline (a constant
 *              prediction) when it ran and was graded, else none.
 * Why the trivial baseline: the reference's tasks all have leaderboards; a corpus task has none, and a program
 * that does not beat a constant prediction learned nothing from the data: the same floor (SFT's parallel path
 * uses it too, sft/graded-reward.ts).
 *
 * Fixed scale of a task: [W_static, B_static] with B_static = max(theoretical best, leaderboard best). On it the
 * group-best reward of a group is
 *   r_fixed = clip((max_i s̃_i − W_static)/(B_static − W_static), 0, 1)   (graded, non-hack rollouts; none → 0),
 * which, unlike the group-best reward under adaptive bounds (≈ 1 by construction: B is the best score so far),
 * says whether the best programs got better.
 */
export const TrivialWorstMode = z
  .enum(["auto", "always", "never"])
  .default("auto")
  .describe(
    "W_static from the trivial baseline (one constant-prediction program per task, run at the start) for tasks " +
      "without a leaderboard: auto = only when bounds.anchor is static (the static rule needs both bounds), " +
      "always = also clamp the adaptive bounds (W = max(W, s̃(trivial))), never = not run (no static worst bound " +
      "without a leaderboard; anchor static then refuses to run). The reference's tasks all have leaderboards.",
  );
export type TrivialWorstMode = z.infer<typeof TrivialWorstMode>;

/** A task's static bounds as a run used and stored them (table rl_task_bounds). */
export interface TaskScale {
  readonly taskId: string;
  readonly higherIsBetter: boolean;
  readonly staticBest: number | null;
  readonly staticWorst: number | null;
  readonly worstFrom: "leaderboard" | "trivial" | "none";
  /** The trivial baseline's raw graded test score (null: not run, failed or not graded). */
  readonly trivialScore: number | null;
}

/** W_static of a task: the leaderboard's when it has one, else s̃(trivial) when finite, else none. */
export function staticWorstOf(
  leaderboardWorst: number | undefined,
  trivialScore: number | null,
  higherIsBetter: boolean,
): { readonly staticWorst?: number; readonly worstFrom: TaskScale["worstFrom"] } {
  if (leaderboardWorst !== undefined) return { staticWorst: leaderboardWorst, worstFrom: "leaderboard" };
  const triv = signedScore(trivialScore, higherIsBetter);
  return Number.isFinite(triv) ? { staticWorst: triv, worstFrom: "trivial" } : { worstFrom: "none" };
}

/** Whether a run's rewards clamp by s̃(trivial) on tasks without a leaderboard worst bound (and so run it). */
export const needsTrivial = (mode: TrivialWorstMode, anchor: string) =>
  mode === "always" || (mode === "auto" && anchor === "static");

/** r_fixed of one group from its graded test scores (raw, in the metric's direction); null without a scale. */
export function fixedScaleReward(testScores: readonly (number | null)[], scale: TaskScale): number | null {
  if (scale.staticBest === null || scale.staticWorst === null || !(scale.staticBest > scale.staticWorst)) return null;
  const signed = testScores.map((t) => signedScore(t, scale.higherIsBetter)).filter(Number.isFinite);
  if (!signed.length) return 0;
  return boundedReward(Math.max(...signed), scale.staticBest, scale.staticWorst);
}
