import { describe, expect, it } from "vitest";
import { heldOutSplit, kFolds } from "./held-out-split.js";

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
// Tasks a (3 examples), b (2), c (1), d (2), e (2): G = 5.
const groups = ["a", "a", "b", "c", "a", "d", "b", "d", "e", "e"];

describe("heldOutSplit (SFT's early-stopping split)", () => {
  // h = min(n − 1, round(n · share)); k = min(G − 1, round(G · share)).
  it.each([
    { n: 0, share: 0.2, held: 0 },
    { n: 1, share: 0.5, held: 0 }, // one example is never held out
    { n: 5, share: 0.2, held: 1 },
    { n: 10, share: 0.25, held: 3 }, // round(2.5) = 3
    { n: 3, share: 0.9, held: 2 }, // round(2.7) = 3, capped at n − 1
    { n: 10, share: 0, held: 0 },
  ])("by example: n $n, share $share → $held held out", ({ n, share, held }) => {
    const s = heldOutSplit(n, { share, seed: 3 });
    expect(s.held).toHaveLength(held);
    expect(sorted([...s.held, ...s.train])).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it.each([
    { share: 0.2, tasks: 1 }, // round(1.0)
    { share: 0.4, tasks: 2 },
    { share: 0.5, tasks: 3 }, // round(2.5) = 3
    { share: 0.95, tasks: 4 }, // round(4.75) = 5, capped at G − 1
    { share: 0, tasks: 0 },
  ])("by task: 5 tasks, share $share → every example of $tasks tasks held out", ({ share, tasks }) => {
    for (let seed = 0; seed < 6; seed++) {
      const s = heldOutSplit(groups.length, { share, seed, by: "task" }, groups);
      const heldTasks = new Set(s.held.map((i) => groups[i]));
      expect(heldTasks.size).toBe(tasks);
      // no task on both sides, every example on one side, both sides in the examples' order
      for (const i of s.train) expect(heldTasks.has(groups[i]!)).toBe(false);
      expect(s.held.length).toBe(groups.filter((g) => heldTasks.has(g)).length);
      expect(s.held).toEqual(sorted(s.held));
      expect(s.train).toEqual(sorted(s.train));
    }
  });

  it("one task only: nothing is held out", () => {
    expect(heldOutSplit(3, { share: 0.5, by: "task" }, ["x", "x", "x"])).toEqual({ held: [], train: [0, 1, 2] });
  });

  it("the seed picks the tasks; the same seed picks the same ones", () => {
    const picks = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const s = heldOutSplit(groups.length, { share: 0.2, seed, by: "task" }, groups);
      expect(heldOutSplit(groups.length, { share: 0.2, seed, by: "task" }, groups)).toEqual(s);
      picks.add(groups[s.held[0]!]!);
    }
    expect(picks.size).toBeGreaterThan(2);
  });

  it("by task without one id per example is an error", () => {
    expect(() => heldOutSplit(3, { by: "task" })).toThrow(/one task id per example/);
    expect(() => heldOutSplit(3, { by: "task" }, ["a"])).toThrow(/one task id per example/);
    expect(() => heldOutSplit(3, { by: "task", extra: 1 } as never)).toThrow();
  });
});

describe("kFolds (cross-validated early stopping's folds)", () => {
  const groups = ["a", "a", "b", "c", "c", "c", "d", "e", "f", "f", "g"]; // 7 tasks, 11 examples
  it.each([
    { folds: 2, by: "task" as const, sizes: [4, 3] }, // tasks per fold: 7 units, j mod 2
    { folds: 3, by: "task" as const, sizes: [3, 2, 2] },
    { folds: 5, by: "task" as const, sizes: [2, 2, 1, 1, 1] },
    { folds: 9, by: "task" as const, sizes: [1, 1, 1, 1, 1, 1, 1] }, // capped at 7 tasks
    { folds: 4, by: "example" as const, sizes: [3, 3, 3, 2] }, // 11 examples, j mod 4
  ])("$folds folds by $by: a partition, units spread evenly, a task's examples together", ({ folds, by, sizes }) => {
    for (const seed of [0, 1, 7]) {
      const f = kFolds(groups.length, folds, { seed, by }, groups);
      expect([...f.flat()].sort((x, y) => x - y)).toEqual(groups.map((_, i) => i)); // every example exactly once
      const units = f.map((idx) => new Set(idx.map((i) => (by === "task" ? groups[i] : String(i)))).size);
      expect(units).toEqual(sizes);
      const foldOf = new Map(f.flatMap((idx, k) => idx.map((i) => [groups[i], k] as const)));
      if (by === "task") groups.forEach((g, i) => expect(f[foldOf.get(g)!]).toContain(i));
      f.forEach((idx) => expect(idx).toEqual([...idx].sort((x, y) => x - y))); // examples keep their order
      expect(kFolds(groups.length, folds, { seed, by }, groups)).toEqual(f); // the seed fixes the folds
    }
  });

  it("refuses fewer than 2 folds, and by task without one id per example", () => {
    expect(() => kFolds(4, 1)).toThrow(/folds must be/);
    expect(() => kFolds(4, 2, { by: "task" }, ["a"])).toThrow(/one task id per example/);
  });
});
