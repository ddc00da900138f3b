import { describe, expect, it } from "vitest";
import type { PairedInterval } from "../../eval/index.js";
import type { TwoIntervals } from "./heldout-summary.js";
import { describeVerdict, directVerdict, strictVerdict } from "./strict-verdict.js";

const iv = (lo: number, hi: number): PairedInterval => ({ n: 85, mean: (lo + hi) / 2, lo, hi, wins: 0, losses: 0, ties: 0 });
const two = (a: [number, number], b: [number, number]): TwoIntervals => ({ tasks: iv(...a), withDraws: iv(...b) });
const ABOVE = two([0.01, 0.04], [0.005, 0.05]);
const BELOW = two([-0.05, -0.01], [-0.06, -0.002]);
const ACROSS = two([0.016, 0.1], [-0.001, 0.119]); // above over tasks, across 0 with the draws (the 4-seed g2 − g1)

describe("strictVerdict", () => {
  it.each([
    ["win above on both estimators", { win: [ABOVE, ABOVE], score: [ACROSS, ACROSS] }, "beats", ["win"], []],
    ["one estimator across 0", { win: [ABOVE, ACROSS] }, "level", [], []],
    ["tasks above, draws across: not met", { win: [ACROSS] }, "level", [], []],
    ["score above, win level", { win: [ACROSS], score: [ABOVE] }, "beats", ["score"], []],
    ["both measures above", { win: [ABOVE], score: [ABOVE] }, "beats", ["win", "score"], []],
    ["wholly below", { win: [BELOW, BELOW], score: [ACROSS] }, "worse", [], ["win"]],
    ["win above, score below", { win: [ABOVE], score: [BELOW] }, "mixed", ["win"], ["score"]],
    ["interval touching 0 is not above", { win: [two([0, 0.1], [0.01, 0.1])] }, "level", [], []],
    ["no estimate", {}, "unmeasured", [], []],
    ["a missing interval decides nothing", { win: [{ tasks: iv(0.1, 0.2), withDraws: null }] }, "unmeasured", [], []],
    ["the missing measure is skipped", { win: [{ tasks: null, withDraws: null }], score: [ABOVE] }, "beats", ["score"], []],
  ] as const)("%s", (_, estimates, verdict, beatsOn, worseOn) => {
    expect(strictVerdict(estimates)).toEqual({ verdict, beatsOn, worseOn });
  });

  it("directVerdict reads one comparison's pairedReadings as the only estimator", () => {
    expect(directVerdict({ win: ABOVE, score: BELOW })).toEqual({ verdict: "mixed", beatsOn: ["win"], worseOn: ["score"] });
    expect(directVerdict({ win: ACROSS, score: ABOVE })).toEqual({ verdict: "beats", beatsOn: ["score"], worseOn: [] });
  });

  it.each([
    [{ verdict: "beats", beatsOn: ["win", "score"], worseOn: [] }, "beats on win and score"],
    [{ verdict: "worse", beatsOn: [], worseOn: ["score"] }, "worse on score"],
    [{ verdict: "mixed", beatsOn: ["win"], worseOn: ["score"] }, "mixed (beats on win, worse on score)"],
    [{ verdict: "level", beatsOn: [], worseOn: [] }, "level"],
    [{ verdict: "unmeasured", beatsOn: [], worseOn: [] }, "unmeasured"],
  ] as const)("describes %o as %s", (v, words) => {
    expect(describeVerdict(v)).toBe(words);
  });
});
