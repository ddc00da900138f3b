// The measures and the decision rule on hand-made cells, every expectation computed by hand.
import { describe, expect, it } from "vitest";
import { armMeasures, decide, drawValue, taskDiffs, type CellOutcome } from "./arm-measures.js";
import type { DecisionRule } from "./experiment-plan.js";

const cell = (arm: string, taskId: string, draw: number, o: Partial<CellOutcome>): CellOutcome => ({
  arm, taskId, draw, valid: true, testScore: null, normalisable: false, normalized: null, medal: null, humanRank: null,
  ...o,
});
// t1 has a leaderboard (medals, Human Rank); t2 has none but a normalised score. Higher is better on both.
const A = [
  cell("A", "t1", 0, { testScore: 0.9, medal: "gold", humanRank: 0.9 }),
  cell("A", "t1", 1, { valid: false, medal: "none", humanRank: 0 }),
  cell("A", "t2", 0, { testScore: 5, normalisable: true, normalized: 0.6 }),
  cell("A", "t2", 1, { testScore: 3, normalisable: true, normalized: -0.2 }), // credit max(0, −0.2) = 0
];
const B = [
  cell("B", "t1", 0, { testScore: 0.8, medal: "none", humanRank: 0.5 }),
  cell("B", "t1", 1, { testScore: 0.7, medal: "none", humanRank: 0.4 }),
  cell("B", "t2", 0, { testScore: 4, normalisable: true, normalized: 0.3 }),
  cell("B", "t2", 1, { valid: false, normalisable: true }), // failed: credit 0
];
const higher = () => true;

describe("drawValue", () => {
  it.each([
    ["valid_rate", A[1]!, 0],
    ["valid_rate", A[0]!, 1],
    ["medal_average", A[0]!, 1],
    ["medal_average", A[1]!, 0],
    ["medal_average", A[2]!, null], // no leaderboard
    ["human_rank", A[1]!, 0],
    ["human_rank", B[0]!, 0.5],
    ["normalized", A[3]!, 0],
    ["normalized", A[2]!, 0.6],
    ["normalized", A[0]!, null], // not normalisable
    ["median_score", B[3]!, 0],
  ] as const)("%s of %j", (m, c, want) => {
    expect(drawValue(m, c)).toBe(want);
  });
});

describe("armMeasures", () => {
  it("per task, then over tasks; the win rate against B", () => {
    const all = ["valid_rate", "medal_average", "human_rank", "normalized", "median_score", "win_rate"] as const;
    // valid: A (½ + 1)/2, B (1 + ½)/2; medals t1 only: A ½, B 0; Human Rank t1: A (0.9 + 0)/2, B (0.5 + 0.4)/2;
    // normalised t2 only: A (0.6 + 0)/2, B (0.3 + 0)/2; median t2: A median(0.6, 0) = 0.3, B 0.15;
    // win: t1 P = (1 + 1 + 0 + 0)/4 = ½ (failed < graded), t2 P = (1 + 1 + 0 + 1)/4 = ¾; mean 0.625.
    expect(armMeasures("A", A, all, { arm: "B", cells: B }, higher)).toEqual({
      valid_rate: 0.75, medal_average: 0.5, human_rank: 0.45, normalized: 0.3, median_score: 0.3, win_rate: 0.625,
    });
    expect(armMeasures("B", B, all, { arm: "B", cells: B }, higher)).toEqual({
      valid_rate: 0.75, medal_average: 0, human_rank: expect.closeTo(0.45, 12), normalized: 0.15, median_score: 0.15,
      win_rate: null,
    });
  });

  it("a lower-is-better task turns the win around", () => {
    // t2 lower is better: A [5, 3] vs B [4, failed]: 5 < 4? no 0; 5 vs failed 1; 3 < 4 1; 3 vs failed 1 → ¾
    // t1 lower is better: 0.9 vs 0.8 0, vs 0.7 0, failed vs graded 0, 0 → 0. Mean 0.375.
    expect(armMeasures("A", A, ["win_rate"], { arm: "B", cells: B }, () => false)).toEqual({ win_rate: 0.375 });
  });
});

describe("taskDiffs and decide", () => {
  it.each([
    ["human_rank", [{ taskId: "t1", d: 0 }]],
    ["normalized", [{ taskId: "t2", d: 0.15 }]],
    ["valid_rate", [{ taskId: "t1", d: -0.5 }, { taskId: "t2", d: 0.5 }]],
    ["win_rate", [{ taskId: "t1", d: 0 }, { taskId: "t2", d: 0.25 }]],
  ] as const)("taskDiffs %s", (m, want) => {
    expect(taskDiffs(m, A, B, higher).map((x) => ({ ...x, d: Number(x.d.toFixed(12)) }))).toEqual(want);
  });

  const rule = (o: Partial<DecisionRule>): DecisionRule => ({
    measure: "normalized", comparison: ["A", "B"], test: "paired-bootstrap", alpha: 0.05, direction: "greater", ...o,
  });
  it.each([
    // one task, d = 0.15: every resample's mean is 0.15, so the interval is [0.15, 0.15]
    ["greater, d above 0", rule({}), "supported", 0.9],
    ["less, d above 0", rule({ direction: "less" }), "not-supported", 0.9],
    ["two-sided, d above 0", rule({ direction: "two-sided" }), "supported", 0.95],
    ["greater, d = 0 exactly", rule({ measure: "human_rank" }), "not-supported", 0.9],
    ["alpha 0.1 one-sided", rule({ alpha: 0.1 }), "supported", 0.8],
  ] as const)("%s → %s", (_, r, verdict, level) => {
    const v = decide(r, A, B, higher, 1);
    expect(v).toMatchObject({ verdict, level: expect.closeTo(level, 12), comparison: ["A", "B"] });
    expect(v.interval?.n).toBe(1);
  });

  it("no task measured by both arms is unmeasured", () => {
    expect(decide(rule({}), A, [], higher, 1)).toMatchObject({ verdict: "unmeasured", interval: null });
  });
});
