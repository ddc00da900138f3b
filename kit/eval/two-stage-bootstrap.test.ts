import { describe, expect, it } from "vitest";
import { pairedBootstrap } from "./paired-bootstrap.js";
import { twoStageBootstrap } from "./two-stage-bootstrap.js";

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe("twoStageBootstrap", () => {
  it("constant draws everywhere: the interval is the point", () => {
    const r = twoStageBootstrap([[0.3, 0.3], [0.3, 0.3, 0.3]], mean)!;
    expect([r.n, r.mean, r.lo, r.hi]).toEqual([2, 0.3, 0.3, 0.3]);
  });

  it("noisy draws whose task means agree: tasks-only says certain, two-stage does not", () => {
    // 10 tasks, draws [0, 1] each: every task mean is 0.5, so pairedBootstrap gives [0.5, 0.5]; a resampled task mean
    // is 0, 0.5 or 1 (¼, ½, ¼: variance 0.125), so the mean of 10 has sd √(0.125 / 10) ≈ 0.112 and a 95 % interval
    // of about ± 0.22
    const tasks = Array.from({ length: 10 }, () => [0, 1]);
    const only = pairedBootstrap(tasks.map(mean))!;
    expect([only.lo, only.hi]).toEqual([0.5, 0.5]);
    const two = twoStageBootstrap(tasks, mean)!;
    expect(two.mean).toBe(0.5);
    expect(two.lo).toBeGreaterThan(0.2);
    expect(two.lo).toBeLessThan(0.35);
    expect(two.hi).toBeGreaterThan(0.65);
    expect(two.hi).toBeLessThan(0.8);
  });

  it("counts wins/losses/ties by task figure, skips empty tasks, is seeded, null without draws", () => {
    const tasks = [[1, 2], [-1], [0, 0], []];
    const r = twoStageBootstrap(tasks, mean, { resamples: 500 })!;
    expect([r.n, r.wins, r.losses, r.ties]).toEqual([3, 1, 1, 1]);
    expect(r.mean).toBeCloseTo(1.5 / 3 - 1 / 3, 12);
    expect(twoStageBootstrap(tasks, mean, { resamples: 500 })).toEqual(r);
    expect(twoStageBootstrap([[], []], mean)).toBeNull();
    // f sees each task's index in the input (empty tasks keep their place): tasks 1 and 3 → mean 2
    expect(twoStageBootstrap([[], [0], [], [0]], (_d, i) => i, { resamples: 100 })!.mean).toBe(2);
  });
});
