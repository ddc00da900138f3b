import { describe, expect, test } from "vitest";
import { clipNormalized, normalizedScore, weakReference } from "./normalized-score.js";

describe("normalizedScore: (score − trivial)/(reference − trivial) clipped to [low, high]", () => {
  test.each([
    // score, trivial, reference, higherIsBetter, clip, expected (hand-computed)
    [0.8, 0.5, 0.9, true, undefined, 0.75], // 0.3 / 0.4
    [0.9, 0.5, 0.9, true, undefined, 1],
    [0.4, 0.5, 0.9, true, undefined, -0.25], // −0.1 / 0.4
    [3, 5, 4, false, undefined, 2], // −2 / −1 = 2, at the high end
    [2, 5, 4, false, undefined, 2], // −3 / −1 = 3 → clipped to 2
    [5, 5, 4, false, undefined, 0],
    [7, 5, 4, false, undefined, -1], // 2 / −1 = −2 → clipped to −1
    // The weak reference of issue 60: ROC AUC 0.11 against trivial 0.5, reference 0.5125: −0.39 / 0.0125 = −31.2.
    [0.11, 0.5, 0.5125, true, undefined, -1],
    [0.11, 0.5, 0.5125, true, [-100, 100], -31.2],
    [0.99, 0.5, 0.5125, true, [-1, 2], 2], // 0.49 / 0.0125 = 39.2 → 2
    [0.8, 0.5, 0.9, true, [0, 0.5], 0.5], // 0.75 → 0.5
    [1, 0.5, 0.5, true, undefined, null], // no separation
    [1, 0.9, 0.5, true, undefined, null], // reference worse than trivial
    [null, 0.5, 0.9, true, undefined, null],
    [Number.NaN, 0.5, 0.9, true, undefined, null],
  ] as const)("normalizedScore(%s; %s, %s, hib=%s, clip %j) = %s", (s, t, r, hib, clip, e) => {
    const v = normalizedScore(s, { trivial: t, reference: r }, hib, clip ? { clip: [...clip] } : {});
    if (e === null) expect(v).toBeNull();
    else expect(v).toBeCloseTo(e, 12);
  });

  test("a clip whose low is not below its high is refused", () => {
    expect(() => normalizedScore(1, { trivial: 0, reference: 1 }, true, { clip: [2, 2] })).toThrow(/low < high/);
  });
});

describe("weakReference: (reference − trivial)/(perfect − trivial) < minShare", () => {
  test.each([
    // trivial, reference, perfect, minShare, expected (share by hand)
    [0.5, 0.5125, 1, undefined, true], // 0.0125 / 0.5 = 0.025
    [0.5, 0.56, 1, undefined, false], // 0.06 / 0.5 = 0.12
    [0.5, 0.549, 1, undefined, true], // 0.049 / 0.5 = 0.098
    [0.5, 0.55, 1, 0.2, true], // 0.1 < 0.2
    [10, 9.5, 0, undefined, true], // RMSE: −0.5 / −10 = 0.05
    [10, 8, 0, undefined, false], // −2 / −10 = 0.2
    [0.5, 0.45, 1, undefined, true], // reference worse than trivial: −0.1
    [0.5, 0.6, null, undefined, null], // perfect unknown: no flag
    [1, 1, 1, undefined, null], // trivial already perfect
    [Number.NaN, 0.6, 1, undefined, null],
  ] as const)("weakReference(%s, %s; perfect %s, minShare %s) = %s", (t, r, p, minShare, e) => {
    expect(weakReference({ trivial: t, reference: r }, p, minShare === undefined ? {} : { minShare })).toBe(e);
  });
});

describe("clipNormalized (a stored unbounded ratio, bounded)", () => {
  test.each([
    [3.903, undefined, 2],
    [0.5, undefined, 0.5],
    [-9.2, undefined, -1],
    [2, undefined, 2],
    [3.903, [0, 5], 3.903],
    [-0.5, [0, 1], 0],
  ] as const)("clipNormalized(%s, clip %s) = %s", (ratio, clip, e) => {
    expect(clipNormalized(ratio, clip === undefined ? {} : { clip: [...clip] })).toBe(e);
  });
});
