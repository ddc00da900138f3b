import { describe, expect, it } from "vitest";
import { diffs, pearson } from "./study-join.js";
import { binomialSurprise, chanceAgreement } from "./study-stats.js";

describe("the numbers of a join", () => {
  it.each([
    { xy: [[1, 2], [2, 4], [3, 6]], r: 1, why: "a line" },
    { xy: [[1, 3], [2, 2], [3, 1]], r: -1, why: "a falling line" },
    // mx = 2, my = 2/3: cxy = (-1)(1/3) + 0 + (1)(-2/3) = -1, cxx = 2, cyy = 2/3: r = -1 / sqrt(4/3) = -0.8660
    { xy: [[1, 1], [2, 1], [3, 0]], r: -0.8660254, why: "by hand" },
    { xy: [[1, 5], [2, 5], [3, 5]], r: NaN, why: "a constant side" },
    { xy: [[1, 2], [2, 3]], r: NaN, why: "fewer than 3 pairs" },
  ])("pearson: $why", ({ xy, r }) => {
    const got = pearson(xy as [number, number][]);
    if (Number.isNaN(r)) expect(got).toBeNaN();
    else expect(got).toBeCloseTo(r, 6);
  });

  it("first differences take consecutive pairs and drop NaN", () => {
    expect(diffs([[1, 10], [3, 13], [6, NaN], [10, 20]])).toEqual([[2, 3]]);
  });

  it.each([
    { a: ["x", "x", "y", "y"], b: ["x", "y", "y", "y"], p0: 0.5 * 0.25 + 0.5 * 0.75 },
    { a: ["x"], b: ["y"], p0: 0 },
    { a: [1, 2, 3, 4], b: [1, 2, 3, 4], p0: 0.25 },
  ])("chance agreement Σ pA·pB = $p0", ({ a, b, p0 }) => expect(chanceAgreement(a, b)).toBeCloseTo(p0, 12));

  it.each([
    { k: 10, n: 10, p: 0.5, s: 10 * Math.log10(2), why: "all of 10 at 1/2: -log10(2^-10) = 3.0103" },
    // P(X >= 9) = 10·0.5^10 + 0.5^10 = 11/1024: -log10 = 1.9700
    { k: 9, n: 10, p: 0.5, s: -Math.log10(11 / 1024), why: "9 or more of 10 at 1/2" },
    { k: 79, n: 79, p: 0.567, s: -79 * Math.log10(0.567), why: "Sitka: 79 of 79 trees' treat at p0 = 0.567 → 19.5" },
    { k: 0, n: 10, p: 0.5, s: 0, why: "no agreement needed" },
    { k: 3, n: 10, p: 1, s: 0, why: "certain agreement" },
  ])("binomial surprise: $why", ({ k, n, p, s }) => expect(binomialSurprise(k, n, p)).toBeCloseTo(s, 6));
});
