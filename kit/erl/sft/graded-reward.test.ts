import { describe, expect, it } from "vitest";
import type { TaskRewardInfo } from "../rl/index.js";
import { draftBounds, gradedRewards } from "./graded-reward.js";

const info = (higherIsBetter: boolean, s: { staticBest?: number; staticWorst?: number } = {}): TaskRewardInfo => ({ higherIsBetter, metricRange: null, leaderboardRange: null, ...s });

describe("draftBounds: leaderboard first, else the trivial baseline", () => {
  const table: [string, TaskRewardInfo, number | null, object][] = [
    ["a leaderboard's bounds win over the trivial score", info(true, { staticBest: 0.95, staticWorst: 0.5 }), 0.6, { staticBest: 0.95, staticWorst: 0.5, worstFrom: "leaderboard" }],
    ["no leaderboard: W_static = the trivial score", info(true), 0.6, { staticWorst: 0.6, worstFrom: "trivial" }],
    ["lower is better: the trivial RMSE 2.5 is signed to −2.5", info(false), 2.5, { staticWorst: -2.5, worstFrom: "trivial" }],
    ["a static best without a static worst keeps the best", info(true, { staticBest: 1 }), 0.6, { staticBest: 1, staticWorst: 0.6, worstFrom: "trivial" }],
    ["no trivial score: no static worst", info(true), null, { worstFrom: "none" }],
    ["a non-finite trivial score: no static worst", info(true), Number.NaN, { worstFrom: "none" }],
  ];
  for (const [name, i, triv, want] of table) it(name, () => expect(draftBounds(i, triv)).toEqual(want));
});

describe("gradedRewards: RL's base reward of the graded test score", () => {
  const close = (got: readonly number[], want: number[]) => {
    expect(got).toHaveLength(want.length);
    got.forEach((x, k) => expect(x).toBeCloseTo(want[k]!, 9));
  };
  it("adaptive only, K = 4 < 16: W = 0.6 − 0.25·0.3 = 0.525, B = 0.9; the lowest still gets 0.2", () => {
    const r = gradedRewards([0.9, 0.8, 0.7, 0.6], true, {});
    expect(r.best).toBeCloseTo(0.9, 12);
    expect(r.worst).toBeCloseTo(0.525, 12);
    close(r.rewards, [1, 0.275 / 0.375, 0.175 / 0.375, 0.2]);
  });
  it("a static worst bound 0.7 (leaderboard or trivial): W = max(0.525, 0.7), 0.7 and 0.6 get 0", () => {
    close(gradedRewards([0.9, 0.8, 0.7, 0.6], true, { staticWorst: 0.7 }).rewards, [1, 0.5, 0, 0]);
  });
  it("lower is better: RMSE 1, 2, 3 with a trivial 2.5 → signed −1, −2, −3, W = −2.5, B = −1", () => {
    close(gradedRewards([1, 2, 3], false, { staticWorst: -2.5 }).rewards, [1, 0.5 / 1.5, 0]);
  });
  it("a static best below the top clips several to 1: B = 0.85, W = 0.8 − 0.25·0.15", () => {
    close(gradedRewards([0.8, 0.9, 0.95], true, { staticBest: 0.85 }).rewards, [0.0375 / 0.0875, 1, 1]);
  });
  it("K = 20 ≥ 16 without static bounds: anchor x(16) = 5, W = 5 − 0.25·15 = 1.25, so score 1 gets 0", () => {
    const scores = Array.from({ length: 20 }, (_, k) => k + 1);
    const r = gradedRewards(scores, true, {});
    expect(r.worst).toBeCloseTo(1.25, 12);
    expect(r.rewards[0]).toBe(0);
    expect(r.rewards[1]).toBeCloseTo(0.75 / 18.75, 12);
    expect(r.rewards.filter((x) => x > 0)).toHaveLength(19);
  });
  it("not graded → 0; a single graded draft → 1 (RL's rule), even below the static worst", () => {
    close(gradedRewards([null, 0.4, null], true, { staticWorst: 0.7 }).rewards, [0, 1, 0]);
    expect(gradedRewards([null, null], true, {}).rewards).toEqual([0, 0]);
  });
});

describe("gradedRewards: distinct scores make the bounds", () => {
  it("drafts that all agree get 1 each (K = 1), not B = W + 1e-6 and 0", () => {
    expect(gradedRewards([0.85, 0.85, null], true, {}).rewards).toEqual([1, 1, 0]);
  });
  it("a repeated score counts once: 0.9, 0.8, 0.8, 0.7 → K = 3, W = 0.7 − 0.05 = 0.65", () => {
    const r = gradedRewards([0.9, 0.8, 0.8, 0.7], true, {});
    expect(r.worst).toBeCloseTo(0.65, 12);
    [1, 0.6, 0.6, 0.2].forEach((x, k) => expect(r.rewards[k]).toBeCloseTo(x, 12));
  });
});
