import { adaptiveBounds, signedScore, type AdaptiveBoundsOptions } from "./adaptive-bounds.js";
import { entropicAdvantage, grpoAdvantage } from "./entropic-advantage.js";
import { gapPenalty, penaliseReward, type GapPenaltyOptions } from "./gap-penalty.js";

/** What the reward of one executed (or judged) program depends on. */
export interface RolloutOutcome {
  /** The graded test score (the task's hidden metric); null when the program failed. */
  readonly testScore: number | null;
  /** The program's printed validation score. */
  readonly validScore: number | null;
  /** Which reward-hacking check fired, if any. */
  readonly hack: string | null;
}

export interface GroupRewardSettings {
  readonly higherIsBetter: boolean;
  readonly metricRange?: number | null;
  readonly leaderboardRange?: number | null;
  readonly bounds?: AdaptiveBoundsOptions;
  readonly gap?: GapPenaltyOptions;
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
  readonly rewards: number[];
  readonly advantages: number[];
  readonly grpoAdvantages: number[];
}

/**
 * One group's rewards and advantages (spec §3.2), in this order:
 * 1. signed graded score s̃ of each program (flagged programs count as failed here);
 * 2. adaptive bounds over the task's history + the group → r ∈ [0, 1];
 * 3. a positive r is multiplied by the validation–test gap factor;
 * 4. a flagged program's reward is hackReward (−0.5);
 * 5. entropic advantages of the final rewards (and GRPO's, for comparison).
 */
export function groupRewards(
  outcomes: readonly RolloutOutcome[],
  history: readonly number[],
  s: GroupRewardSettings,
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
  const rewards = b.rewards.map((r, i) =>
    outcomes[i]!.hack ? (s.hackReward ?? -0.5) : penaliseReward(r, gaps[i]!.factor),
  );
  const ent = entropicAdvantage(rewards);
  return {
    best: b.best,
    worst: b.worst,
    beta: ent.beta,
    signed,
    gap: gaps.map((g) => g.gap),
    gapFactor: gaps.map((g) => g.factor),
    rewards,
    advantages: ent.advantages,
    grpoAdvantages: grpoAdvantage(rewards),
  };
}
