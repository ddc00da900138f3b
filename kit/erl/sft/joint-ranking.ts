/** One executed Draft of the parallel path. */
export interface RankCandidate {
  readonly id: string;
  readonly teacher: "primary" | "secondary";
  /** Validation score; null when the program had no valid score. */
  readonly score: number | null;
}

export interface RankedCandidate<C extends RankCandidate> {
  readonly candidate: C;
  /** 1-based joint rank among valid, score-unique candidates; null when dropped before ranking. */
  readonly rank: number | null;
  readonly kept: boolean;
  readonly reason: "kept" | "invalid" | "duplicate-score" | "below-cap" | "secondary-not-first";
}

/**
 * Two-teacher joint ranking of one task's drafts (spec §3.1):
 * 1. keep candidates with a valid (finite) score;
 * 2. remove exact score duplicates (the earliest candidate of each score stays);
 * 3. rank the rest jointly, best first (s(x) = x, or −x when lower is better; ties by input order);
 * 4. a primary candidate is kept if its rank ≤ cap; a secondary one only if its rank is 1.
 * With one teacher (all primary) this is "top `cap` by score". At most `cap` are kept.
 */
export function jointRanking<C extends RankCandidate>(
  candidates: readonly C[],
  opts: { cap: number; higherIsBetter: boolean },
): RankedCandidate<C>[] {
  const seen = new Set<number>();
  const pre = candidates.map((c, i) => {
    if (c.score === null || !Number.isFinite(c.score)) return { c, i, reason: "invalid" as const };
    if (seen.has(c.score)) return { c, i, reason: "duplicate-score" as const };
    seen.add(c.score);
    return { c, i, reason: null };
  });
  const s = (x: number) => (opts.higherIsBetter ? x : -x);
  const ranked = pre.filter((p) => p.reason === null).sort((a, b) => s(b.c.score!) - s(a.c.score!) || a.i - b.i);
  const rankOf = new Map(ranked.map((p, k) => [p.i, k + 1]));
  return pre.map((p) => {
    if (p.reason) return { candidate: p.c, rank: null, kept: false, reason: p.reason };
    const rank = rankOf.get(p.i)!;
    if (p.c.teacher === "secondary")
      return { candidate: p.c, rank, kept: rank === 1, reason: rank === 1 ? "kept" : "secondary-not-first" };
    return { candidate: p.c, rank, kept: rank <= opts.cap, reason: rank <= opts.cap ? "kept" : "below-cap" };
  });
}
