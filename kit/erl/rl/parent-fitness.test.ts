import { describe, expect, it } from "vitest";
import { createRng } from "../../util/rng.js";
import { drawParents, keepTop, parentFitness, variance, type ParentStats } from "./parent-fitness.js";

describe("parent fitness", () => {
  it.each([
    // rewards 0.2/0.6/1.0 → 0/0.5/1; children: a [0.2, 0.6] var 0.04, b [0.5] var 0, c none → mm′ a 1, b 0, c 0.5;
    // visits 2/1/0, max 2 → cool 0/0.5/1 → mm 0/0.5/1.
    {
      name: "three programs by hand",
      s: [{ reward: 0.2, childRewards: [0.2, 0.6], visits: 2 }, { reward: 0.6, childRewards: [0.5], visits: 1 }, { reward: 1, childRewards: [], visits: 0 }],
      f: [0 + 1 + 0, 0.5 + 0 + 0.5, 1 + 0.5 + 1],
    },
    { name: "all constant → 0.5 each term", s: [{ reward: 0.5, childRewards: [], visits: 0 }, { reward: 0.5, childRewards: [], visits: 0 }], f: [1.5, 1.5] },
    // one program with children: its mm′ is 0.5 (constant over one); others 0.5 too.
    { name: "one parent with children", s: [{ reward: 0, childRewards: [1, 0], visits: 1 }, { reward: 1, childRewards: [], visits: 0 }], f: [0 + 0.5 + 0, 1 + 0.5 + 1] },
    { name: "empty", s: [], f: [] },
  ])("$name", ({ s, f }) => {
    parentFitness(s).forEach((x, i) => expect(x).toBeCloseTo(f[i]!, 12));
    expect(parentFitness(s).length).toBe(f.length);
  });

  it("variance is the population variance; one child gives 0", () => {
    expect(variance([0.2, 0.6])).toBeCloseTo(0.04, 12);
    expect(variance([0.5])).toBe(0);
  });

  const s: (ParentStats & { id: string })[] = [
    { id: "fail", reward: 0, childRewards: [], visits: 0 },
    { id: "weak", reward: 0.2, childRewards: [0.2, 0.6], visits: 2 },
    { id: "mid", reward: 0.6, childRewards: [0.5], visits: 1 },
    { id: "top", reward: 1, childRewards: [], visits: 0 },
  ];
  it("improve/crossover draw from reward > 0, debug from reward ≤ 0, ∝ fitness", () => {
    const fit = parentFitness(s); // over all four programs
    const eligible = [1, 2, 3];
    const total = eligible.reduce((t, i) => t + fit[i]!, 0);
    const counts = new Map<string, number>();
    const rng = createRng(7);
    const n = 20000;
    for (let k = 0; k < n; k++) {
      const [p] = drawParents(s, "improve", 1, rng);
      counts.set(p!.id, (counts.get(p!.id) ?? 0) + 1);
    }
    expect(counts.has("fail")).toBe(false);
    eligible.forEach((i) => expect((counts.get(s[i]!.id) ?? 0) / n).toBeCloseTo(fit[i]! / total, 1));
    expect(drawParents(s, "debug", 1, rng).map((p) => p.id)).toEqual(["fail"]);
    const two = drawParents(s, "crossover", 2, rng);
    expect(new Set(two.map((p) => p.id)).size).toBe(2);
    expect(drawParents(s.slice(0, 1), "improve", 1, rng)).toEqual([]);
  });

  it("keeps the top 10 by fitness", () => {
    const many = Array.from({ length: 14 }, (_, i) => ({ reward: i, childRewards: [], visits: 0 }));
    expect(keepTop(many).map((x) => x.reward)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });
});
