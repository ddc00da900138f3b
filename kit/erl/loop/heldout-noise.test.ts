import { describe, expect, it } from "vitest";
import { noiseSplit, pairDraws, projectedHalfWidth, twoStageGenerations, twoStageWinRate, type PairedValue } from "./heldout-noise.js";

const rows = (byTask: Record<string, number[]>): PairedValue[] =>
  Object.entries(byTask).flatMap(([taskId, vs]) => vs.map((value, index) => ({ taskId, index, value })));

describe("noiseSplit (hand-computed)", () => {
  // differences per task: x [1, 0] (d̄ 0.5, s² 0.5, s²/n 0.25), y [0.2, 0.4] (0.3, 0.02, 0.01), z [−1, −1] (−1, 0, 0)
  const a = rows({ x: [1, 0], y: [0.2, 0.4], z: [0, 0] });
  const b = rows({ x: [0, 0], y: [0, 0], z: [1, 1] });
  it("D, V, W, H, the half-width and the projections", () => {
    const s = noiseSplit(a, b)!;
    expect(s.tasks).toBe(3);
    expect(s.draws).toBe(2);
    expect(s.mean).toBeCloseTo(-0.2 / 3, 12); // (0.5 + 0.3 − 1) / 3
    expect(s.observed).toBeCloseTo(1.326667 / 2, 5); // (0.5667² + 0.3667² + 0.9333²) / 2
    expect(s.within).toBeCloseTo(0.26 / 3, 12); // (0.25 + 0.01 + 0) / 3
    expect(s.between).toBeCloseTo(0.663333 - 0.086667, 5);
    expect(s.halfWidth).toBeCloseTo(1.96 * Math.sqrt(0.663333 / 3), 5); // 0.9216
    expect(s.tasksNeeded).toBe(574); // ⌈3.8416 · 0.663333 / 0.0044444⌉ = ⌈573.4⌉
    expect(s.drawsNeeded).toBeNull(); // D² T / z² = 0.00347 ≤ H = 0.5767: draws alone cannot get there
    expect(projectedHalfWidth(s, 4, 3)).toBeCloseTo(1.96 * Math.sqrt((0.576667 + 0.043333) / 3), 5); // 0.8910
    expect(projectedHalfWidth(s, 2, 3)).toBeCloseTo(s.halfWidth, 12);
  });

  it("half draw noise, half task spread: more draws can get there", () => {
    // differences: p [0.2, 0.0] (d̄ 0.1, s²/n 0.01), q [0.4, 0.2] (0.3, 0.01); D 0.2, V 0.02, W 0.01, H 0.01
    const s = noiseSplit(rows({ p: [0.2, 0], q: [0.4, 0.2] }), rows({ p: [0, 0], q: [0, 0] }))!;
    expect([s.mean, s.observed, s.within, s.between].map((x) => Number(x.toFixed(6)))).toEqual([0.2, 0.02, 0.01, 0.01]);
    expect(s.tasksNeeded).toBe(2); // ⌈3.8416 · 0.02 / 0.04⌉ = ⌈1.92⌉
    expect(s.drawsNeeded).toBe(Math.ceil((0.01 * 2) / ((0.04 * 2) / 3.8416 - 0.01))); // ⌈0.02 / 0.010825⌉ = 2
  });

  it("task figures closer than their draws allow (W > V): H = 0 and the half-width keeps W", () => {
    // differences p [1, −1], q [1, −1]: d̄ 0 and 0 (V 0), s² 2 each (W = 2 / 2 = 1): 1.96 · √(1 / 2) = 1.386
    const s = noiseSplit(rows({ p: [1, -1], q: [1, -1] }), rows({ p: [0, 0], q: [0, 0] }))!;
    expect([s.observed, s.within, s.between]).toEqual([0, 1, 0]);
    expect(s.halfWidth).toBeCloseTo(1.96 * Math.sqrt(0.5), 12);
    expect([s.tasksNeeded, s.drawsNeeded]).toEqual([null, null]);
  });

  it("pairs by (task, index) only, drops tasks with under 2 pairs, null under 2 tasks", () => {
    const s = noiseSplit(
      [...rows({ p: [0.2, 0, 9], q: [0.4, 0.2] }), { taskId: "r", index: 0, value: 1 }],
      rows({ p: [0, 0], q: [0, 0], r: [0] }),
    )!;
    expect(s.tasks).toBe(2);
    expect(s.mean).toBeCloseTo(0.2, 12);
    expect(noiseSplit(rows({ p: [1, 2] }), rows({ p: [0, 0] }))).toBeNull();
    expect(() => noiseSplit([], [], { z: 0 })).toThrow();
  });
});

describe("pairDraws and the two-stage intervals", () => {
  it("pairs by (task, index), sorted, in draw order", () => {
    const a = [{ taskId: "y", index: 1, value: 5 }, { taskId: "x", index: 2, value: 1 }, { taskId: "x", index: 0, value: 3 }];
    const b = [{ taskId: "x", index: 0, value: 30 }, { taskId: "x", index: 2, value: 10 }, { taskId: "y", index: 0, value: 9 }];
    expect(pairDraws(a, b)).toEqual([["x", [[3, 30], [1, 10]]]]);
  });

  it("twoStageGenerations: the mean of the per-task mean differences; a constant difference has no spread", () => {
    const s = twoStageGenerations(rows({ p: [1, 2], q: [3, 3] }), rows({ p: [0, 1], q: [2, 2] }))!;
    expect([s.n, s.mean, s.lo, s.hi]).toEqual([2, 1, 1, 1]);
  });

  it("twoStageWinRate: every a beats every b → P − ½ = ½ on every resample; direction per task", () => {
    const a = [...rows({ up: [3, 4] }), ...rows({ down: [1, 1] })];
    const b = [...rows({ up: [1, 2] }), ...rows({ down: [5, 6] })];
    const r = twoStageWinRate(a, b, (t) => t === "up")!;
    expect([r.n, r.mean, r.lo, r.hi]).toEqual([2, 0.5, 0.5, 0.5]);
    // a failed draw loses to a graded one: null loses to 1 and 2, 4 beats both, so P = 2 / 4 = ½ → 0
    const f = twoStageWinRate([{ taskId: "t", index: 0, value: null }, { taskId: "t", index: 1, value: 4 }],
      [{ taskId: "t", index: 0, value: 1 }, { taskId: "t", index: 1, value: 2 }], () => true)!;
    expect(f.mean).toBe(0);
  });
});
