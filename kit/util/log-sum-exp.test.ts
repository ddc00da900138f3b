import { describe, expect, it } from "vitest";
import { logSumExp } from "./log-sum-exp.js";

describe("logSumExp", () => {
  it.each([
    ["one term", [3], 3],
    ["two equal terms: log 2 above them", [0, 0], Math.log(2)],
    ["log(e^1 + e^2 + e^3)", [1, 2, 3], Math.log(Math.exp(1) + Math.exp(2) + Math.exp(3))],
    ["large values do not overflow", [1000, 1000], 1000 + Math.log(2)],
    ["very negative values do not underflow to −∞", [-1000, -1000], -1000 + Math.log(2)],
  ])("%s", (_, z, want) => {
    expect(logSumExp(z)).toBeCloseTo(want, 12);
  });

  it("is −∞ for no terms", () => {
    expect(logSumExp([])).toBe(-Infinity);
  });
});
