import { describe, expect, it } from "vitest";
import { jointRanking, type RankCandidate } from "./joint-ranking.js";

const c = (id: string, teacher: "primary" | "secondary", score: number | null): RankCandidate => ({ id, teacher, score });
const kept = (cs: RankCandidate[], higherIsBetter = true, cap = 4) =>
  jointRanking(cs, { cap, higherIsBetter }).filter((r) => r.kept).map((r) => r.candidate.id);

describe("jointRanking (two-teacher batch)", () => {
  it("one teacher: top 4 by score, invalid and duplicate scores dropped first", () => {
    const cs = [c("a", "primary", 0.5), c("b", "primary", null), c("c", "primary", 0.9), c("d", "primary", 0.9), c("e", "primary", 0.7), c("f", "primary", 0.6), c("g", "primary", 0.4)];
    // Valid unique: a .5, c .9, e .7, f .6, g .4 (d duplicates c) → ranks c1 e2 f3 a4 g5.
    expect(kept(cs)).toEqual(["a", "c", "e", "f"]);
    const r = jointRanking(cs, { cap: 4, higherIsBetter: true });
    expect(r.map((x) => [x.candidate.id, x.rank, x.reason])).toEqual([
      ["a", 4, "kept"], ["b", null, "invalid"], ["c", 1, "kept"], ["d", null, "duplicate-score"], ["e", 2, "kept"], ["f", 3, "kept"], ["g", 5, "below-cap"],
    ]);
  });
  // Hand-worked: joint ranks, primary kept iff rank ≤ 4, secondary iff rank 1.
  const table: [string, RankCandidate[], boolean, string[]][] = [
    ["secondary ranks 1st: kept with three primaries", [c("p1", "primary", 0.8), c("s1", "secondary", 0.95), c("p2", "primary", 0.7), c("p3", "primary", 0.6), c("p4", "primary", 0.5)], true, ["p1", "s1", "p2", "p3"]],
    ["secondary ranks 2nd: dropped, four primaries kept", [c("p1", "primary", 0.8), c("s1", "secondary", 0.75), c("p2", "primary", 0.7), c("p3", "primary", 0.6), c("p4", "primary", 0.5)], true, ["p1", "p2", "p3"]],
    ["lower is better: the smallest error ranks 1st", [c("p1", "primary", 3.0), c("s1", "secondary", 1.0), c("p2", "primary", 2.0)], false, ["p1", "s1", "p2"]],
    ["lower is better: secondary 2nd of three", [c("p1", "primary", 3.0), c("s1", "secondary", 2.0), c("p2", "primary", 1.0)], false, ["p1", "p2"]],
    ["a secondary duplicate of a primary score is removed", [c("p1", "primary", 0.9), c("s1", "secondary", 0.9)], true, ["p1"]],
  ];
  for (const [name, cs, hib, want] of table) it(name, () => expect(kept(cs, hib)).toEqual(want));
  it("the cap holds whatever the mix", () => {
    const cs = Array.from({ length: 10 }, (_, i) => c(`x${i}`, i % 2 ? "secondary" : "primary", i / 10));
    expect(kept(cs).length).toBeLessThanOrEqual(4);
    // x9 (secondary) rank 1 kept, x8 rank 2 kept, x7 (secondary) rank 3 dropped, x6 rank 4 kept, x5 rank 5 dropped.
    expect(kept(cs)).toEqual(["x6", "x8", "x9"]);
  });
});
