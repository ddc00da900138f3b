import { describe, expect, it } from "vitest";
import { gapPenalty, gapScale, penaliseReward } from "./gap-penalty.js";

const ON = { enabled: true };

describe("validation–test gap penalty", () => {
  it.each([
    // accuracy: scale 1; g = 0.06 → 1 − 0.05·0.5 = 0.975
    { name: "bounded metric", i: { test: 0.84, validation: 0.9, metricRange: 1 }, scale: 1, gap: 0.06, factor: 0.975 },
    // QWK: range 2; g = 0.24/2 = 0.12 → 0.95
    { name: "QWK range 2", i: { test: 0.5, validation: 0.74, metricRange: 2 }, scale: 2, gap: 0.12, factor: 0.95 },
    // RMSE with a leaderboard spanning 10: g = 2/10 = 0.2 → 1 − 0.05·(0.2/0.12)
    { name: "unbounded, leaderboard range", i: { test: 4, validation: 2, leaderboardRange: 10 }, scale: 10, gap: 0.2, factor: 1 - 0.05 * (0.2 / 0.12) },
    // RMSE without leaderboard: scale max(|4|, |2|) = 4; g = 0.5 → 1 − 0.05·(0.5/0.12)
    { name: "unbounded, no leaderboard", i: { test: 4, validation: 2 }, scale: 4, gap: 0.5, factor: 1 - 0.05 * (0.5 / 0.12) },
    // g = 3 → 1 − 1.25 < 0 → 0
    { name: "huge gap floors at 0", i: { test: 0, validation: 3, metricRange: 1 }, scale: 1, gap: 3, factor: 0 },
    // leaderboard range 100 is still a scale: g = 20/100 = 0.2
    { name: "leaderboard range 100", i: { test: 500, validation: 480, leaderboardRange: 100 }, scale: 100, gap: 0.2, factor: 1 - 0.05 * (0.2 / 0.12) },
    // leaderboard range 250 > 100: scale max(|500|, |480|) = 500; g = 20/500 = 0.04 → 1 − 0.05·(0.04/0.12)
    { name: "leaderboard range > 100 → |score|", i: { test: 500, validation: 480, leaderboardRange: 250 }, scale: 500, gap: 0.04, factor: 1 - 0.05 * (0.04 / 0.12) },
    // negative scores (signed R²-like): range 1e4 > 100 → max(|−300|, |−200|) = 300; g = 100/300
    { name: "negative scores use their absolute value", i: { test: -300, validation: -200, leaderboardRange: 1e4 }, scale: 300, gap: 1 / 3, factor: 1 - 0.05 * (1 / 3 / 0.12) },
    // an unbounded metric range (Infinity) is no scale either: the leaderboard's is
    { name: "infinite metric range", i: { test: 4, validation: 2, metricRange: Infinity, leaderboardRange: 10 }, scale: 10, gap: 0.2, factor: 1 - 0.05 * (0.2 / 0.12) },
  ])("$name", ({ i, scale, gap, factor }) => {
    expect(gapScale(i)).toBeCloseTo(scale, 12);
    const p = gapPenalty(i, ON);
    expect(p.gap).toBeCloseTo(gap, 12);
    expect(p.factor).toBeCloseTo(factor, 12);
  });

  it("off by default (the reference's released RL scripts): the gap is still measured, the factor is 1", () => {
    const p = gapPenalty({ test: 0.84, validation: 0.9, metricRange: 1 });
    expect(p.gap).toBeCloseTo(0.06, 12);
    expect(p.factor).toBe(1);
    expect(gapPenalty({ test: 0.84, validation: 0.9, metricRange: 1 }, { enabled: true, coefficient: 0 }).factor).toBe(1);
  });

  it("the threshold of the absolute scale is a setting", () => {
    // range 250 ≤ 300: the leaderboard range is the scale
    expect(gapScale({ test: 500, validation: 480, leaderboardRange: 250 }, 300)).toBe(250);
    expect(gapPenalty({ test: 500, validation: 480, leaderboardRange: 250 }, { enabled: true, absoluteAbove: 300 }).gap).toBeCloseTo(0.08, 12);
  });

  it("no validation or zero scale → gap unknown, factor 1; settings change the slope", () => {
    expect(gapPenalty({ test: 0.8, validation: null, metricRange: 1 }, ON)).toEqual({ gap: null, factor: 1 });
    expect(gapPenalty({ test: 0, validation: 0 }, ON)).toEqual({ gap: null, factor: 1 });
    expect(gapPenalty({ test: 0.84, validation: 0.9, metricRange: 1 }, { enabled: true, coefficient: 0.1, tolerance: 0.06 }).factor).toBeCloseTo(0.9, 12);
    expect(() => gapPenalty({ test: 1, validation: 1 }, { coef: 1 } as never)).toThrow(/coef/);
  });

  it("only positive rewards are penalised", () => {
    expect(penaliseReward(0.8, 0.5)).toBe(0.4);
    expect(penaliseReward(0, 0.5)).toBe(0);
    expect(penaliseReward(-0.5, 0.5)).toBe(-0.5);
  });
});
