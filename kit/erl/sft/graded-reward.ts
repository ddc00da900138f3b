import { adaptiveBounds, signedScore, staticWorstOf, type TaskRewardInfo, type TaskScale } from "../rl/index.js";

/** Static bounds (signed: higher is better) of the parallel path's reward; a missing one is not clamped. */
export interface DraftBounds {
  readonly staticBest?: number;
  readonly staticWorst?: number;
  /** Where W_static comes from: the task's leaderboard, its trivial baseline, or nowhere. */
  readonly worstFrom: TaskScale["worstFrom"];
}

/**
 * The static bounds of one task's drafts:
 *   B_static = RL's static best bound of the task (taskRewardInfo, from the leaderboard), when it has one;
 *   W_static = RL's static worst bound (the leaderboard's last-placed team) when the task has a leaderboard,
 *              else s̃(trivial) when `trivialScore` is a finite graded score of kit/eval's trivial baseline
 *              (a constant prediction), else none.
 * Why the trivial baseline: without static bounds, W = anchor − 0.25·(B − anchor) with anchor = the lowest of
 * K < 16 graded scores gives that lowest one (anchor − W)/(B − W) = 0.25/1.25 = 0.2, so "reward > 0" would
 * only remove failures. The reference's tasks all have leaderboards, where W_static = the worst team bites:
 * a draft worse than every human entry gets 0. A constant prediction is the same floor for a task without
 * one: a draft that does not beat it learned nothing from the data.
 */
export function draftBounds(info: TaskRewardInfo, trivialScore: number | null): DraftBounds {
  const best = info.staticBest !== undefined ? { staticBest: info.staticBest } : {};
  return { ...best, ...staticWorstOf(info.staticWorst, trivialScore, info.higherIsBetter) };
}

/**
 * Graded rewards of one task's drafts (docs/paper-map.md: SFT collection; the reference code's reward details: the
 * parallel path keeps drafts with graded reward > 0 and ranks them by it). The graded reward is RL's base reward of
 * the graded test score:
 *   s̃_i = signedScore(test_i) (NaN when not graded);
 *   [W, B] = adaptiveBounds over the task's distinct graded scores of this collection, x(1) ≥ … ≥ x(K)
 *            (anchor x(16), or x(K) when K < 16; W = anchor − 0.25·(x(1) − anchor)), clamped by the
 *            static bounds: B = min(B, B_static), W = max(W, W_static); B ≤ W → B = W + 1e-6;
 *   r_i = clip((s̃_i − W)/(B − W), 0, 1); K = 1 → r = 1 (RL's single-score rule); not graded → r = 0.
 * Distinct scores: equal scores are one point of evidence (the ranking keeps one draft per score anyway), and
 * with repeats all drafts of a task that agree would get B = W + 1e-6 and reward 0, dropping the whole task.
 * No gap penalty: the reference's RL scripts switch it off, and the baseline filter handles the gap here.
 */
export function gradedRewards(
  testScores: readonly (number | null)[],
  higherIsBetter: boolean,
  bounds: Omit<DraftBounds, "worstFrom">,
): { readonly best: number | null; readonly worst: number | null; readonly rewards: readonly number[] } {
  const signed = testScores.map((t) => signedScore(t, higherIsBetter));
  const distinct = [...new Set(signed.filter((x) => Number.isFinite(x)))];
  const opts = {
    ...(bounds.staticBest !== undefined ? { staticBest: bounds.staticBest } : {}),
    ...(bounds.staticWorst !== undefined ? { staticWorst: bounds.staticWorst } : {}),
  };
  const b = adaptiveBounds([], distinct, opts);
  const rewardOf = new Map(distinct.map((x, k) => [x, b.rewards[k]!]));
  return { best: b.best, worst: b.worst, rewards: signed.map((x) => rewardOf.get(x) ?? 0) };
}
