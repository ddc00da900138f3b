import { describe, expect, it } from "vitest";
import type { RunOutcome } from "./evaluate-runs.js";
import { compareRuns } from "./runs-compare.js";

const run = (id: string, task: string, seed: number, score: number | null, hib = false): RunOutcome => ({
  run_id: id, task_id: task, harness: "h", policy: "p", config_hash: "c", seed, modality: "tabular",
  higher_is_better: hib, score, submission_exists: score !== null,
});

describe("compareRuns: two sets of runs on the hidden test, seeds as pairs (hand-computed)", () => {
  it("one task: d = s·(a − b) per seed, the interval in metric units; failed and unpaired keys counted", () => {
    const a = [run("a1", "cars", 1, 2.0), run("a2", "cars", 2, 2.5), run("a3", "cars", 3, 3.0), run("a4", "cars", 4, null)];
    const b = [run("b1", "cars", 1, 2.5), run("b2", "cars", 2, 2.5), run("b3", "cars", 3, 2.8), run("b4", "cars", 4, 2.0), run("b5", "cars", 5, 2.0)];
    const c = compareRuns(a, b);
    expect(c.pairs.map((p) => p.d)).toEqual([0.5, 0, expect.closeTo(-0.2, 12)]); // RMSE: lower is better
    expect(c.interval!.mean).toBeCloseTo(0.1, 12);
    expect(c.interval!.lo).toBeGreaterThanOrEqual(-0.2 - 1e-12);
    expect(c.interval!.hi).toBeLessThanOrEqual(0.5);
    expect(c).toMatchObject({ scale: "metric units", tasks: 1, wins: 1, losses: 1, ties: 1, failed: { a: 1, b: 0 }, unpaired: { a: 0, b: 1 } });
  });

  it("several tasks: relative differences averaged per task, bootstrapped over tasks", () => {
    const a = [run("a1", "t1", 1, 0.9, true), run("a2", "t1", 2, 0.8, true), run("a3", "t2", 1, 1.0)];
    const b = [run("b1", "t1", 1, 0.8, true), run("b2", "t1", 2, 0.8, true), run("b3", "t2", 1, 2.0)];
    const c = compareRuns(a, b, { resamples: 2000 });
    // t1: (0.1/0.8 + 0)/2 = 0.0625; t2: −(1 − 2)/2 = 0.5; mean over tasks 0.28125
    expect(c.interval!.mean).toBeCloseTo(0.28125, 12);
    expect(c.interval!.lo).toBeCloseTo(0.0625, 12);
    expect(c.interval!.hi).toBeCloseTo(0.5, 12);
    expect(c).toMatchObject({ scale: "relative", tasks: 2, wins: 2, losses: 0, ties: 1 });
  });

  it("a key run twice in one set keeps its last run by id; nothing shared gives no interval", () => {
    const c = compareRuns([run("a1", "cars", 1, 3.0), run("a2", "cars", 1, 2.0)], [run("b1", "cars", 1, 2.5)]);
    expect(c.pairs).toEqual([{ task_id: "cars", seed: 1, a_run: "a2", b_run: "b1", a: 2.0, b: 2.5, d: 0.5 }]);
    expect(compareRuns([run("a", "x", 1, 1)], [run("b", "y", 1, 1)]).interval).toBeNull();
  });
});
