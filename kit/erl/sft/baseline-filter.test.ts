import { describe, expect, it } from "vitest";
import { baselineFilter, validationTestGap, type BaselineFilterInput } from "./baseline-filter.js";

const i = (validScore: number | null, testScore: number | null, metricRange: number | null = null, leaderboardRange: number | null = null): BaselineFilterInput => ({ validScore, testScore, metricRange, leaderboardRange });

describe("validationTestGap: d = |test − valid| / max(scale, 1e-12)", () => {
  // Hand-computed: scale = metric range (≤ 2), else leaderboard range, else max(|test|, |valid|).
  const table: [string, BaselineFilterInput, number | null][] = [
    ["accuracy (range 1): 0.80 vs 0.70", i(0.8, 0.7, 1), 0.1],
    ["AUC near 0 (range 1): 0.03 vs 0.05 is 0.02, not 40 %", i(0.03, 0.05, 1), 0.02],
    ["QWK (range 2): 0.30 vs −0.01", i(0.3, -0.01, 2), 0.155],
    ["RMSE with a leaderboard range 4: 3.0 vs 3.6", i(3.0, 3.6, null, 4), 0.15],
    ["a metric range above 2 is not a scale: the leaderboard's is", i(3.0, 3.6, 10, 4), 0.15],
    ["no range at all: 10 vs 11.5 → 1.5 / 11.5", i(10, 11.5), 1.5 / 11.5],
    ["no range, lower score is the test: 11.3 vs 10 → 1.3 / 11.3", i(11.3, 10), 1.3 / 11.3],
    ["no range, both 0: no gap", i(0, 0), 0],
    ["no range, one of them 0: the other's magnitude → 1", i(0, 0.001), 1],
    ["no validation", i(null, 0.7, 1), null],
    ["no test score", i(0.7, null, 1), null],
    ["a non-finite validation", i(Number.NaN, 0.7, 1), null],
  ];
  for (const [name, input, want] of table)
    it(name, () => (want === null ? expect(validationTestGap(input)).toBeNull() : expect(validationTestGap(input)).toBeCloseTo(want, 12)));
});

describe("baselineFilter (threshold 0.12 unless said)", () => {
  const table: [string, BaselineFilterInput, number | null, boolean, string][] = [
    ["accuracy gap 0.10 passes", i(0.8, 0.7, 1), 0.12, true, "pass"],
    ["accuracy gap 0.15 is dropped", i(0.85, 0.7, 1), 0.12, false, "validation-test-gap"],
    ["QWK gap 0.11 passes (range 2)", i(0.3, 0.08, 2), 0.12, true, "pass"],
    ["QWK gap 0.155 is dropped", i(0.3, -0.01, 2), 0.12, false, "validation-test-gap"],
    ["RMSE gap 0.10 of the leaderboard range passes", i(3.0, 3.4, null, 4), 0.12, true, "pass"],
    ["no range: 1.3 / 11.3 = 0.115 passes", i(10, 11.3), 0.12, true, "pass"],
    ["no range: 1.5 / 11.5 = 0.130 is dropped", i(10, 11.5), 0.12, false, "validation-test-gap"],
    ["d equal to the threshold passes (≤): 0.125 of 0.125", i(0.75, 0.625, 1), 0.125, true, "pass"],
    ["no printed validation is dropped", i(null, 0.7, 1), 0.12, false, "no-validation"],
    ["no graded test score is dropped", i(0.7, null, 1), 0.12, false, "no-test-score"],
    ["off (null): a large gap passes", i(0.9, 0.1, 1), null, true, "off"],
    ["off (0): a missing test score passes", i(0.9, null, 1), 0, true, "off"],
  ];
  for (const [name, input, max, pass, reason] of table)
    it(name, () => expect(baselineFilter(input, max)).toMatchObject({ pass, reason }));
  it("reports the gap it measured, also when off", () => {
    expect(baselineFilter(i(0.9, 0.1, 1), null).gap).toBeCloseTo(0.8, 12);
    expect(baselineFilter(i(null, 0.1, 1), 0.12).gap).toBeNull();
  });
});
