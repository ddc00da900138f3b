import { describe, expect, it } from "vitest";
import { acceptSegment, quantileThreshold, type AcceptanceInput } from "./acceptance.js";

describe("acceptSegment", () => {
  const hib = { higherIsBetter: true };
  const lib = { higherIsBetter: false };
  // [case, input, expected reason] — hand-checked against the rules in the doc comment.
  const table: [string, AcceptanceInput, string][] = [
    ["draft, valid, reaches threshold", { operator: "draft", endpoint: 0.9, parents: [], threshold: 0.8, ...hib }, "accepted"],
    ["draft, no valid score", { operator: "draft", endpoint: null, parents: [], threshold: 0.8, ...hib }, "invalid-endpoint"],
    ["draft, below threshold", { operator: "draft", endpoint: 0.7, parents: [], threshold: 0.8, ...hib }, "below-threshold"],
    ["draft, exactly the threshold", { operator: "draft", endpoint: 0.8, parents: [], threshold: 0.8, ...hib }, "accepted"],
    ["improve beats parent", { operator: "improve", endpoint: 0.91, parents: [0.9], threshold: 0.8, ...hib }, "accepted"],
    ["improve ties parent", { operator: "improve", endpoint: 0.9, parents: [0.9], threshold: 0.8, ...hib }, "no-gain-over-parent"],
    ["improve of a failed parent", { operator: "improve", endpoint: 0.85, parents: [null], threshold: 0.8, ...hib }, "accepted"],
    ["crossover beats the better parent", { operator: "crossover", endpoint: 0.95, parents: [0.9, 0.93], threshold: 0.8, ...hib }, "accepted"],
    ["crossover beats only the worse parent", { operator: "crossover", endpoint: 0.92, parents: [0.9, 0.93], threshold: 0.8, ...hib }, "no-gain-over-best-parent"],
    // Lower is better (rmse): smaller beats larger.
    ["lib draft under threshold (good)", { operator: "draft", endpoint: 2.0, parents: [], threshold: 2.5, ...lib }, "accepted"],
    ["lib draft over threshold", { operator: "draft", endpoint: 3.0, parents: [], threshold: 2.5, ...lib }, "below-threshold"],
    ["lib improve lowers the error", { operator: "improve", endpoint: 2.0, parents: [2.2], threshold: 2.5, ...lib }, "accepted"],
    ["lib improve raises the error", { operator: "improve", endpoint: 2.3, parents: [2.2], threshold: 2.5, ...lib }, "no-gain-over-parent"],
    ["lib crossover beats the better (lower) parent", { operator: "crossover", endpoint: 1.9, parents: [2.4, 2.0], threshold: 2.5, ...lib }, "accepted"],
    ["lib crossover between its parents", { operator: "crossover", endpoint: 2.1, parents: [2.4, 2.0], threshold: 2.5, ...lib }, "no-gain-over-best-parent"],
    ["leaderboard: the test score reaches bronze", { operator: "draft", endpoint: 0.7, thresholdScore: 0.95, parents: [], threshold: 0.9, ...hib }, "accepted"],
    ["leaderboard: no test score", { operator: "draft", endpoint: 0.99, thresholdScore: null, parents: [], threshold: 0.9, ...hib }, "below-threshold"],
  ];
  for (const [name, input, reason] of table) {
    it(name, () => {
      const r = acceptSegment(input);
      expect(r.reason).toBe(reason);
      expect(r.accepted).toBe(reason === "accepted");
    });
  }
});

describe("quantileThreshold", () => {
  // Scores 0.6 0.7 0.8 0.9 1.0: s-quantile at 0.75 → h = 4·0.75 = 3 → 0.9.
  // Lower is better, same errors: s = −x sorted −1.0 −0.9 −0.8 −0.7 −0.6; h = 3 → −0.7 → threshold 0.7.
  // Four scores 1 2 3 4, top 50%: h = 3·0.5 = 1.5 → 2.5.
  const table: [number[], number, boolean, number | null][] = [
    [[0.6, 0.7, 0.8, 0.9, 1.0], 0.25, true, 0.9],
    [[0.6, 0.7, 0.8, 0.9, 1.0], 0.25, false, 0.7],
    [[1, 2, 3, 4], 0.5, true, 2.5],
    [[5], 0.25, true, 5],
    [[], 0.25, true, null],
  ];
  for (const [scores, top, h, want] of table) {
    it(`${JSON.stringify(scores)} top ${top} ${h ? "higher" : "lower"} is better → ${want}`, () => {
      const t = quantileThreshold([...scores, null], top, h);
      if (want === null) expect(t).toBeNull();
      else expect(t).toBeCloseTo(want, 12);
    });
  }
  it("rejects a share outside (0, 1]", () => expect(() => quantileThreshold([1], 0, true)).toThrow(/topShare/));
});
