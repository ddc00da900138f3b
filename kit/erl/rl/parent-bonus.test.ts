import { describe, expect, it } from "vitest";
import { ParentBonusOptions, copiesParent, normaliseCode, parentBonus, parentReward } from "./parent-bonus.js";

const p = (testScore: number | null, code = "") => ({ code, testScore });

describe("parent bonus (reference code)", () => {
  it.each([
    // bounds W = 0.525, B = 0.9 (B − W = 0.375): r(0.7) = 0.175/0.375 = 7/15
    { name: "improve: the parent on the group's bounds", parents: [p(0.7)], hib: true, best: 0.9, worst: 0.525, alpha: 1, r: 7 / 15 },
    // crossover: max(r(0.6) = 0.2, r(0.8) = 11/15)
    { name: "crossover: the better parent", parents: [p(0.6), p(0.8)], hib: true, best: 0.9, worst: 0.525, alpha: 1, r: 11 / 15 },
    { name: "crossover: one parent without a score", parents: [p(null), p(0.8)], hib: true, best: 0.9, worst: 0.525, alpha: 1, r: 11 / 15 },
    { name: "no finite graded score → 0", parents: [p(null)], hib: true, best: 0.9, worst: 0.525, alpha: 1, r: 0 },
    { name: "NaN score → 0", parents: [p(Number.NaN)], hib: true, best: 0.9, worst: 0.525, alpha: 1, r: 0 },
    { name: "no parents → 0", parents: [], hib: true, best: 0.9, worst: 0.525, alpha: 1, r: 0 },
    // rmse 2.5: signed −2.5 on [−4, −2] → 1.5/2
    { name: "lower is better: signed", parents: [p(2.5)], hib: false, best: -2, worst: -4, alpha: 1, r: 0.75 },
    { name: "above B clips to 1", parents: [p(0.95)], hib: true, best: 0.9, worst: 0.525, alpha: 1, r: 1 },
    { name: "below W clips to 0", parents: [p(0.5)], hib: true, best: 0.9, worst: 0.525, alpha: 1, r: 0 },
    { name: "α applies as for the children", parents: [p(0.7)], hib: true, best: 0.9, worst: 0.525, alpha: 2, r: (7 / 15) ** 2 },
  ])("parentReward: $name", ({ parents, hib, best, worst, alpha, r }) => {
    expect(parentReward(parents, hib, best, worst, alpha)).toBeCloseTo(r, 12);
  });

  it("parentReward without bounds (no finite score in the group or history) is 0", () => {
    expect(parentReward([p(0.7)], true, null, null)).toBe(0);
  });

  it.each([
    { r: 1, rp: 7 / 15, c: 0.5, bonus: 4 / 15 }, // 0.5 · 8/15
    { r: 0.2, rp: 7 / 15, c: 0.5, bonus: 0 }, // worse than the parent: no bonus, no malus
    { r: 0.5, rp: 0, c: 0.5, bonus: 0.25 },
    { r: 0.5, rp: 0.5, c: 0.5, bonus: 0 },
    { r: 0.9, rp: 0.4, c: 1, bonus: 0.5 },
    { r: 0.9, rp: 0.4, c: 0, bonus: 0 },
  ])("parentBonus($r, $rp, $c) = $bonus", ({ r, rp, c, bonus }) => {
    expect(parentBonus(r, rp, c)).toBeCloseTo(bonus, 12);
  });

  it.each([
    { name: "CRLF and trailing spaces", code: "import x\r\nprint(1)   \r\n\r\n", parent: "import x\nprint(1)\n", copy: true },
    { name: "lone CR and tabs", code: "a = 1\t\rb = 2", parent: "a = 1\nb = 2", copy: true },
    { name: "leading whitespace matters", code: "  a = 1", parent: "a = 1", copy: false },
    { name: "an inner blank line matters", code: "a = 1\n\nb = 2", parent: "a = 1\nb = 2", copy: false },
    { name: "a changed value", code: "a = 2\n", parent: "a = 1\n", copy: false },
  ])("copiesParent: $name → $copy", ({ code, parent, copy }) => {
    expect(copiesParent(code, [p(0.5, "other"), p(0.5, parent)])).toBe(copy);
  });

  it("normaliseCode and the options", () => {
    expect(normaliseCode("x = 1  \r\ny = 2\t\r\n\n")).toBe("x = 1\ny = 2");
    expect(copiesParent("x", [])).toBe(false);
    expect(ParentBonusOptions.parse({})).toEqual({ coefficient: 0.5, zeroCopies: true });
    expect(() => ParentBonusOptions.parse({ coef: 1 })).toThrow(/coef/);
    expect(() => ParentBonusOptions.parse({ coefficient: -1 })).toThrow();
  });
});
