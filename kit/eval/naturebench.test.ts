import { describe, expect, test } from "vitest";
import { instanceGap, natureBench } from "./index.js";

describe("instanceGap", () => {
  test.each([
    // agent, sota, higherIsBetter, g (hand-computed)
    [0.9, 0.8, true, 0.125],
    [0.8, 0.8, true, 0],
    [0.72, 0.8, true, -0.1],
    [0.4, 0.5, false, 0.2],
    [0.55, 0.5, false, -0.1],
    [-0.9, -1.0, true, 0.1],
    [null, 0.8, true, -1],
    [Number.NaN, 0.8, false, -1],
  ])("agent %s vs SOTA %s (higher=%s) → %s", (agent, sota, hib, g) => {
    expect(instanceGap(agent as number | null, sota, hib)).toBeCloseTo(g, 12);
  });
  test("SOTA 0 is rejected", () => expect(() => instanceGap(1, 0, true)).toThrow(/non-zero/));
});

describe("natureBench aggregation", () => {
  test("mean per task, Match (>= 0) and Surpass (> 0.1)", () => {
    const s = natureBench([
      { task_id: "a", agent: 1.2, sota: 1, higher_is_better: true }, // 0.2
      { task_id: "a", agent: 1.1, sota: 1, higher_is_better: true }, // 0.1 → mean 0.15: surpass
      { task_id: "b", agent: 11, sota: 10, higher_is_better: true }, // exactly 0.1: match, not surpass (strict)
      { task_id: "c", agent: 2, sota: 2, higher_is_better: false }, // 0: match
      { task_id: "d", agent: null, sota: 2, higher_is_better: false }, // -1
      { task_id: "d", agent: 1, sota: 2, higher_is_better: false }, // 0.5 → mean -0.25
    ]);
    expect(s.tasks.map((t) => [t.task_id, t.instances, +t.gap.toFixed(12), t.match_sota, t.surpass_sota])).toEqual([
      ["a", 2, 0.15, true, true],
      ["b", 1, 0.1, true, false],
      ["c", 1, 0, true, false],
      ["d", 2, -0.25, false, false],
    ]);
    expect(s.match_sota_rate).toBe(0.75);
    expect(s.surpass_sota_rate).toBe(0.25);
    expect(s.mean_gap).toBeCloseTo((0.15 + 0.1 + 0 - 0.25) / 4, 12);
  });
  test("no instances → zero rates", () => expect(natureBench([]).match_sota_rate).toBe(0));
});
