import { describe, expect, it } from "vitest";
import { adaptiveBounds, boundedReward, signedScore } from "./adaptive-bounds.js";

const close = (a: readonly number[], b: readonly number[]) => {
  expect(a.length).toBe(b.length);
  a.forEach((x, i) => expect(x).toBeCloseTo(b[i]!, 9));
};

describe("adaptiveBounds", () => {
  // group [0.9, 0.8, 0.5, NaN]: K = 3 < 16 → anchor 0.5, B = 0.9, W = 0.5 − 0.25·0.4 = 0.4.
  const g = [0.9, 0.8, 0.5, Number.NaN];
  it.each([
    { name: "top16, fewer than 16 scores", h: [], o: {}, best: 0.9, worst: 0.4, r: [1, 0.8, 0.2, 0] },
    { name: "α = 2", h: [], o: { alpha: 2 }, best: 0.9, worst: 0.4, r: [1, 0.64, 0.04, 0] },
    // B = min(0.9, 0.85), W = max(0.4, 0.45): (0.8 − 0.45)/0.4 = 0.875, (0.5 − 0.45)/0.4 = 0.125.
    { name: "static clamp", h: [], o: { staticBest: 0.85, staticWorst: 0.45 }, best: 0.85, worst: 0.45, r: [1, 0.875, 0.125, 0] },
    // B = 0.3 ≤ W = 0.4 → B = W + 1e-6: every finite score ≥ B.
    { name: "B ≤ W after the clamp", h: [], o: { staticBest: 0.3, staticWorst: 0.35 }, best: 0.400001, worst: 0.4, r: [1, 1, 1, 0] },
    { name: "static only", h: [], o: { anchor: "static" as const, staticBest: 1, staticWorst: 0 }, best: 1, worst: 0, r: [0.9, 0.8, 0.5, 0] },
    { name: "static only without static bounds → top16", h: [], o: { anchor: "static" as const }, best: 0.9, worst: 0.4, r: [1, 0.8, 0.2, 0] },
    // history counts: B = 1.0 from history, anchor 0.5, W = 0.5 − 0.25·0.5 = 0.375.
    { name: "history sets the best bound", h: [1.0, Number.POSITIVE_INFINITY], o: {}, best: 1, worst: 0.375, r: [0.84, 0.68, 0.2, 0] },
  ])("$name", ({ h, o, best, worst, r }) => {
    const out = adaptiveBounds(h, g, o);
    expect(out.best).toBeCloseTo(best, 12);
    expect(out.worst).toBeCloseTo(worst, 12);
    close(out.rewards, r);
  });

  // history 20, 19, …, 1 and group [10]: K = 21, sorted 20 … 11, 10, 10, 9, …, 1.
  const hist = Array.from({ length: 20 }, (_, i) => 20 - i);
  it.each([
    { anchor: "top16" as const, worst: 2.5, r: 7.5 / 17.5 }, // x(16) = 6, W = 6 − 0.25·14
    { anchor: "top8" as const, worst: 11.25, r: 0 }, // x(8) = 13, W = 13 − 0.25·7
    { anchor: "mean" as const, worst: 170 / 21, r: 0.16 }, // mean 220/21, W = 1.25·mean − 5
    { anchor: "median" as const, worst: 7.5, r: 0.2 }, // x(11) = 10, W = 10 − 2.5
  ])("anchor $anchor over 21 scores", ({ anchor, worst, r }) => {
    const out = adaptiveBounds(hist, [10], { anchor });
    expect(out.best).toBe(20);
    expect(out.worst).toBeCloseTo(worst, 12);
    expect(out.rewards[0]).toBeCloseTo(r, 12);
  });

  it.each([
    { h: [], g: [0.7, Number.NaN], r: [1, 0] },
    { h: [Number.NaN], g: [-3], r: [1] },
    { h: [], g: [Number.NaN, Number.POSITIVE_INFINITY], r: [0, 0] },
    { h: [0.5], g: [], r: [] },
  ])("single finite score / all failed / empty: $g → $r", ({ h, g: grp, r }) => {
    expect(adaptiveBounds(h, grp).rewards).toEqual(r);
  });

  it("all failed gives null bounds; unknown options are errors", () => {
    expect(adaptiveBounds([], [Number.NaN])).toEqual({ best: null, worst: null, rewards: [0] });
    expect(() => adaptiveBounds([], [1], { shfit: 0.2 } as never)).toThrow(/shfit/);
  });

  it("signed scores: lower-is-better metrics are negated, failures are NaN", () => {
    expect(signedScore(0.3, false)).toBe(-0.3);
    expect(signedScore(0.3, true)).toBe(0.3);
    expect(signedScore(null, true)).toBeNaN();
  });
});

describe("boundedReward (step 5, also the parent's reward on its children's bounds)", () => {
  it.each([
    { s: 0.65, best: 0.9, worst: 0.4, alpha: 1, r: 0.5 },
    { s: 0.65, best: 0.9, worst: 0.4, alpha: 2, r: 0.25 },
    { s: 1.2, best: 0.9, worst: 0.4, alpha: 1, r: 1 },
    { s: 0.1, best: 0.9, worst: 0.4, alpha: 1, r: 0 },
    { s: Number.NaN, best: 0.9, worst: 0.4, alpha: 1, r: 0 },
    { s: -3, best: -2, worst: -4, alpha: 1, r: 0.5 },
  ])("clip(($s − $worst)/($best − $worst), 0, 1)^$alpha = $r", ({ s, best, worst, alpha, r }) => {
    expect(boundedReward(s, best, worst, alpha)).toBeCloseTo(r, 12);
  });
});
