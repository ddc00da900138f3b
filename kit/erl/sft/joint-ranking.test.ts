import { describe, expect, it } from "vitest";
import { jointRanking, type JointRankingOptions, type RankCandidate } from "./joint-ranking.js";

type T = "primary" | "secondary";
/** A draft whose printed validation equals its graded test score (gap 0). */
const c = (id: string, teacher: T, score: number | null): RankCandidate => ({ id, teacher, validScore: score, testScore: score });
/** A draft with its own validation and test score. */
const vt = (id: string, validScore: number | null, testScore: number | null, teacher: T = "primary"): RankCandidate => ({ id, teacher, validScore, testScore });
const opts = (o: Partial<JointRankingOptions> = {}): JointRankingOptions => ({ cap: 4, higherIsBetter: true, maxGap: 0.12, metricRange: 1, ...o });
const kept = (cs: RankCandidate[], o: Partial<JointRankingOptions> = {}) => jointRanking(cs, opts(o)).filter((r) => r.kept).map((r) => r.candidate.id);
const reasons = (cs: RankCandidate[], o: Partial<JointRankingOptions> = {}) => jointRanking(cs, opts(o)).map((r) => [r.candidate.id, r.rank, r.reason]);

describe("jointRanking (two-teacher batch)", () => {
  it("one teacher: top 4 by graded reward, ungraded and duplicate scores dropped first", () => {
    const cs = [c("a", "primary", 0.5), c("b", "primary", null), c("c", "primary", 0.9), c("d", "primary", 0.9), c("e", "primary", 0.7), c("f", "primary", 0.6), c("g", "primary", 0.4)];
    // Graded unique: a .5, c .9, e .7, f .6, g .4 (d duplicates c) → ranks c1 e2 f3 a4 g5; the lowest still gets 0.2 > 0.
    expect(kept(cs)).toEqual(["a", "c", "e", "f"]);
    expect(reasons(cs)).toEqual([
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
  for (const [name, cs, hib, want] of table) it(name, () => expect(kept(cs, { higherIsBetter: hib, metricRange: null })).toEqual(want));
  it("the cap holds whatever the mix", () => {
    const cs = Array.from({ length: 10 }, (_, i) => c(`x${i}`, i % 2 ? "secondary" : "primary", i / 10));
    // x0 scores 0 (no gap, scale max(0, 0) → d = 0); x9 (secondary) rank 1 kept, x8 2 kept, x7 3 dropped, x6 4 kept.
    expect(kept(cs).length).toBeLessThanOrEqual(4);
    expect(kept(cs)).toEqual(["x6", "x8", "x9"]);
  });
});

describe("jointRanking: the reference's rules (graded reward, baseline filter)", () => {
  it("ranks by the graded test score's reward, not by the printed validation", () => {
    // a claims 0.90 but grades 0.80 (gap 0.10); b claims 0.80 and grades 0.85 (gap 0.05): b ranks first.
    expect(kept([vt("a", 0.9, 0.8), vt("b", 0.8, 0.85)], { cap: 1 })).toEqual(["b"]);
    expect(reasons([vt("a", 0.9, 0.8), vt("b", 0.8, 0.85)], { cap: 1 })).toEqual([["a", 2, "below-cap"], ["b", 1, "kept"]]);
  });
  it("the baseline filter drops a gap over 12 % and a missing validation, before ranking", () => {
    // accuracy (range 1): a gap 0.15 > 0.12; b no printed validation; c gap 0.02; d no graded score.
    const cs = [vt("a", 0.95, 0.8), vt("b", null, 0.9), vt("c", 0.72, 0.7), vt("d", 0.9, null)];
    expect(reasons(cs)).toEqual([["a", null, "validation-test-gap"], ["b", null, "no-validation"], ["c", 1, "kept"], ["d", null, "invalid"]]);
    // The filtered drafts still count in the bounds: scores 0.9, 0.8, 0.7 → W = 0.7 − 0.25·0.2 = 0.65, B = 0.9.
    const r = jointRanking(cs, opts());
    expect(r[2]!.reward).toBeCloseTo(0.05 / 0.25, 12);
    expect(r[0]!.gap).toBeCloseTo(0.15, 12);
    // Off: both come back, ranked by their test score (b 0.9, a 0.8, c 0.7).
    expect(kept(cs, { maxGap: null })).toEqual(["a", "b", "c"]);
    expect(kept(cs, { maxGap: 0 })).toEqual(["a", "b", "c"]);
  });
  it("graded reward 0 is dropped: a static worst 0.7 (leaderboard or trivial baseline) removes 0.7 and 0.6", () => {
    const cs = [c("a", "primary", 0.6), c("b", "primary", 0.9), c("c", "primary", 0.7), c("d", "primary", 0.8)];
    expect(reasons(cs, { bounds: { staticWorst: 0.7 } })).toEqual([["a", null, "zero-reward"], ["b", 1, "kept"], ["c", null, "zero-reward"], ["d", 2, "kept"]]);
    jointRanking(cs, opts({ bounds: { staticWorst: 0.7 } })).forEach((r, k) => expect(r.reward).toBeCloseTo([0, 1, 0, 0.5][k]!, 12));
    // Without static bounds and K < 16 the lowest gets 0.2: nothing is dropped for its reward.
    expect(kept(cs)).toEqual(["a", "b", "c", "d"]);
  });
  it("lower is better: RMSE 1, 2, 3 with a trivial 2.5 keeps 1 and 2", () => {
    const cs = [c("a", "primary", 3), c("b", "primary", 1), c("c", "primary", 2)];
    expect(reasons(cs, { higherIsBetter: false, metricRange: null, bounds: { staticWorst: -2.5 } })).toEqual([["a", null, "zero-reward"], ["b", 1, "kept"], ["c", 2, "kept"]]);
  });
  it("equal rewards (clipped to 1 above B_static) keep input order", () => {
    // B = min(0.95, 0.85): 0.9 and 0.95 both get 1; the earlier (0.9) ranks first.
    const cs = [c("a", "primary", 0.8), c("b", "primary", 0.9), c("c", "primary", 0.95)];
    expect(reasons(cs, { cap: 1, bounds: { staticBest: 0.85 } })).toEqual([["a", 3, "below-cap"], ["b", 1, "kept"], ["c", 2, "below-cap"]]);
  });
  it("duplicates are judged on the graded test score, not on the validation", () => {
    expect(reasons([vt("a", 0.8, 0.85), vt("b", 0.82, 0.85)])).toEqual([["a", 1, "kept"], ["b", null, "duplicate-score"]]);
    expect(kept([vt("a", 0.8, 0.81), vt("b", 0.8, 0.83)])).toEqual(["a", "b"]);
  });
  it("a secondary teacher is judged on the same reward: rank 1 by test score or dropped", () => {
    // s claims 0.95 but grades 0.84 (gap 0.11, passes); p grades 0.86: p ranks 1st, s 2nd → dropped.
    expect(reasons([vt("p", 0.86, 0.86), vt("s", 0.95, 0.84, "secondary")])).toEqual([["p", 1, "kept"], ["s", 2, "secondary-not-first"]]);
  });
});
