import { describe, expect, it } from "vitest";
import { fixedScaleReward, needsTrivial, staticWorstOf, type TaskScale } from "./fixed-scale.js";

const scale = (over: Partial<TaskScale> = {}): TaskScale => ({
  taskId: "t", higherIsBetter: false, staticBest: 0, staticWorst: -8, worstFrom: "trivial", trivialScore: 8, ...over,
});

describe("staticWorstOf", () => {
  it.each([
    // leaderboard worst wins over the trivial baseline
    [-9, 8, false, { staticWorst: -9, worstFrom: "leaderboard" }],
    // rmse 8 (lower is better) → signed −8
    [undefined, 8, false, { staticWorst: -8, worstFrom: "trivial" }],
    // accuracy 0.6 → 0.6
    [undefined, 0.6, true, { staticWorst: 0.6, worstFrom: "trivial" }],
    [undefined, null, true, { worstFrom: "none" }],
    [undefined, Number.NaN, true, { worstFrom: "none" }],
  ] as const)("leaderboard %s, trivial %s, higher %s → %j", (lb, triv, hib, want) => {
    expect(staticWorstOf(lb, triv, hib)).toEqual(want);
  });
});

describe("needsTrivial", () => {
  it.each([
    ["auto", "static", true],
    ["auto", "top16", false],
    ["always", "top16", true],
    ["never", "static", false],
  ] as const)("%s with anchor %s → %s", (mode, anchor, want) => expect(needsTrivial(mode, anchor)).toBe(want));
});

describe("fixedScaleReward", () => {
  it.each([
    // rmse: best of the group 2 → s̃ −2 on [−8, 0]: (−2 + 8)/8 = 0.75
    [[4, 2, null], scale(), 0.75],
    // worse than the trivial baseline → 0; better than the theoretical best cannot happen, clipped to 1 anyway
    [[9], scale(), 0],
    [[-1], scale(), 1],
    // no graded program in the group → 0
    [[null, Number.NaN], scale(), 0],
    // accuracy on [0.5, 1]: best 0.8 → 0.6
    [[0.7, 0.8], scale({ higherIsBetter: true, staticBest: 1, staticWorst: 0.5 }), 0.6],
    // no scale (no worst bound, or an empty one) → null
    [[1], scale({ staticWorst: null }), null],
    [[1], scale({ staticBest: -8 }), null],
  ] as const)("scores %j → %s", (scores, s, want) => {
    const got = fixedScaleReward(scores, s);
    if (want === null) expect(got).toBeNull();
    else expect(got).toBeCloseTo(want, 12);
  });
});
