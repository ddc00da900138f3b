import { AdaptiveBoundsOptions, adaptiveBounds, signedScore } from "./adaptive-bounds.js";
import { entropicAdvantage, grpoAdvantage } from "./entropic-advantage.js";
import { gapPenalty, penaliseReward, type GapPenaltyOptions } from "./gap-penalty.js";
import { ParentBonusOptions, copiesParent, parentReward, parentBonus, type ParentOutcome } from "./parent-bonus.js";

/** What the reward of one executed (or judged) program depends on. */
export interface RolloutOutcome {
  /** The graded test score (the task's hidden metric); null when the program failed. */
  readonly testScore: number | null;
  /** The program's printed validation score. */
  readonly validScore: number | null;
  /** Which reward-hacking check fired, if any. */
  readonly hack: string | null;
  /** The program, compared with the parents' for copies (absent: never a copy). */
  readonly code?: string;
}

export interface GroupRewardSettings {
  readonly higherIsBetter: boolean;
  readonly metricRange?: number | null;
  readonly leaderboardRange?: number | null;
  readonly bounds?: AdaptiveBoundsOptions;
  readonly gap?: GapPenaltyOptions;
  readonly parentBonus?: ParentBonusOptions;
  readonly hackReward?: number;
}

export interface GroupRewards {
  readonly best: number | null;
  readonly worst: number | null;
  readonly beta: number;
  /** Signed graded scores entering the bounds (NaN: failed or flagged). */
  readonly signed: number[];
  readonly gap: (number | null)[];
  readonly gapFactor: number[];
  /** r_parent on this group's bounds (the better parent's); null for a Draft group (no parents). */
  readonly parentReward: number | null;
  /** The parent bonus added to each reward (0 for Drafts, copies and flagged programs). */
  readonly bonus: number[];
  /** True where the program's code equals a parent's (its reward is 0 unless it was flagged). */
  readonly copiesParent: boolean[];
  readonly rewards: number[];
  readonly advantages: number[];
  readonly grpoAdvantages: number[];
}

/**
 * One group's rewards and advantages (the paper's Fig. 6), in this order:
 * 1. signed graded score s̃ of each program (flagged programs count as failed here);
 * 2. adaptive bounds over the task's history + the group → r ∈ [0, 1];
 * 3. a positive r is multiplied by the validation–test gap factor (off by default: gap-penalty.ts);
 * 4. non-Draft groups (with `parents`): r += coefficient · max(0, r − r_parent), r_parent the better
 *    parent's graded score on the same bounds; a copy of a parent's code gets 0 (parent-bonus.ts);
 * 5. a flagged program's reward is hackReward (−0.5);
 * 6. entropic advantages of the final rewards (and GRPO's, for comparison).
 */
export function groupRewards(
  outcomes: readonly RolloutOutcome[],
  history: readonly number[],
  s: GroupRewardSettings,
  parents: readonly ParentOutcome[] = [],
): GroupRewards {
  const signed = outcomes.map((o) => (o.hack ? Number.NaN : signedScore(o.testScore, s.higherIsBetter)));
  const b = adaptiveBounds(history, signed, s.bounds);
  const gaps = outcomes.map((o) =>
    o.testScore === null || o.hack
      ? { gap: null, factor: 1 }
      : gapPenalty(
          {
            test: o.testScore,
            validation: o.validScore,
            metricRange: s.metricRange,
            leaderboardRange: s.leaderboardRange,
          },
          s.gap,
        ),
  );
  const pb = ParentBonusOptions.parse(s.parentBonus ?? {});
  const rParent = parents.length
    ? parentReward(parents, s.higherIsBetter, b.best, b.worst, AdaptiveBoundsOptions.parse(s.bounds ?? {}).alpha)
    : null;
  const copies = outcomes.map((o) => pb.zeroCopies && o.code !== undefined && copiesParent(o.code, parents));
  const bonus = b.rewards.map((r, i) => {
    if (rParent === null || copies[i] || outcomes[i]!.hack) return 0;
    return parentBonus(penaliseReward(r, gaps[i]!.factor), rParent, pb.coefficient);
  });
  const rewards = b.rewards.map((r, i) => {
    if (outcomes[i]!.hack) return s.hackReward ?? -0.5;
    if (copies[i]) return 0;
    return penaliseReward(r, gaps[i]!.factor) + bonus[i]!;
  });
  const ent = entropicAdvantage(rewards);
  return {
    best: b.best,
    worst: b.worst,
    beta: ent.beta,
    signed,
    gap: gaps.map((g) => g.gap),
    gapFactor: gaps.map((g) => g.factor),
    parentReward: rParent,
    bonus,
    copiesParent: copies,
    rewards,
    advantages: ent.advantages,
    grpoAdvantages: grpoAdvantage(rewards),
  };
}
