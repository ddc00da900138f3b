import { describe, expect, it } from "vitest";
import { pairedWinRate, winProbability } from "./win-rate.js";

describe("win rate", () => {
  it.each([
    // a, b, higher is better, P(a ≻ b) worked by hand over the n_a · n_b pairs
    [[2], [1], true, 1],
    [[2], [1], false, 0],
    [[1], [1], true, 0.5], // equal scores tie
    [[null], [null], true, 0.5], // two failures tie
    [[null], [0], true, 0], // a failure loses to any graded program, even a poor one
    [[0], [null], false, 1],
    [[3, 1], [2], true, 0.5], // 3 ≻ 2, 1 ≺ 2 → (1 + 0) / 2
    [[3, 1], [2, 1], true, 0.625], // 3≻2, 3≻1, 1≺2, 1~1 → (1 + 1 + 0 + ½) / 4
    [[1, null], [2, 2], false, 0.5], // 1 ≻ both 2s (lower is better), null ≺ both → 2 / 4
  ] as const)("P(%j ≻ %j | higher %s) = %s", (a, b, hib, want) => {
    expect(winProbability(a, b, hib)).toBeCloseTo(want, 12);
  });

  it("null when an arm has no program", () => {
    expect(winProbability([], [1], true)).toBeNull();
    expect(winProbability([1], [], true)).toBeNull();
  });

  it("paired over tasks: each task one d = P − ½ whatever its scale, tasks lacking an arm left out", () => {
    const r = (taskId: string, testScore: number | null) => ({ taskId, testScore });
    const a = [r("x", 0.9), r("x", 0.7), r("y", 1000), r("z", 5)];
    const b = [r("x", 0.8), r("x", 0.6), r("y", 2000), r("w", 1)];
    // x: 0.9≻0.8, 0.9≻0.6, 0.7≺0.8, 0.7≻0.6 → 3/4, d +0.25; y lower is better: 1000 ≻ 2000 → d +0.5; z, w unpaired
    const d = pairedWinRate(a, b, (t) => t !== "y")!;
    expect(d.n).toBe(2);
    expect(d.mean).toBeCloseTo(0.375, 12);
    expect(d.wins).toBe(2);
    expect(d.lo).toBeGreaterThanOrEqual(0.25 - 1e-12);
    expect(d.hi).toBeLessThanOrEqual(0.5 + 1e-12);
    expect(pairedWinRate(a, [], () => true)).toBeNull();
  });
});
