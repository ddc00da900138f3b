import { baselineFilter } from "./baseline-filter.js";
import { gradedRewards, type DraftBounds } from "./graded-reward.js";

/** One executed Draft of the parallel path. */
export interface RankCandidate {
  readonly id: string;
  readonly teacher: "primary" | "secondary";
  /** Printed validation score; null when the program printed none. */
  readonly validScore: number | null;
  /** Graded test score of the submission; null when the program failed (no successful, graded run). */
  readonly testScore: number | null;
}

/** Why a draft was kept or dropped, in the order the rules apply. */
export type RankReason =
  | "kept"
  | "invalid"
  | "no-validation"
  | "validation-test-gap"
  | "zero-reward"
  | "duplicate-score"
  | "below-cap"
  | "secondary-not-first";

export interface RankedCandidate<C extends RankCandidate> {
  readonly candidate: C;
  /** Graded reward in [0, 1] (0 when not graded). */
  readonly reward: number;
  /** Relative validation–test gap (baseline-filter.ts); null when a score is missing. */
  readonly gap: number | null;
  /** 1-based joint rank among the candidates that passed the filters; null when dropped before ranking. */
  readonly rank: number | null;
  readonly kept: boolean;
  readonly reason: RankReason;
}

export interface JointRankingOptions {
  readonly cap: number;
  readonly higherIsBetter: boolean;
  /** The baseline filter's threshold on the relative gap; null or 0 = off. */
  readonly maxGap: number | null;
  readonly metricRange?: number | null;
  readonly leaderboardRange?: number | null;
  /** Static reward bounds (graded-reward.ts); none = purely adaptive. */
  readonly bounds?: Omit<DraftBounds, "worstFrom">;
}

/**
 * Two-teacher joint ranking of one task's drafts (docs/paper-map.md: SFT collection, with the reference's rules):
 * 1. keep candidates with a graded (finite) test score, else "invalid";
 * 2. graded reward r of every candidate over all of the task's graded candidates (gradedRewards);
 * 3. the baseline filter (baselineFilter, d ≤ maxGap): "no-validation" / "validation-test-gap";
 * 4. keep r > 0, else "zero-reward";
 * 5. remove exact duplicates of the graded test score (the earliest candidate of each score stays);
 * 6. rank the rest jointly by r, best first; equal rewards (several above B clip to 1) keep input order;
 * 7. a primary candidate is kept if its rank ≤ cap; a secondary one only if its rank is 1.
 * With one teacher (all primary) this is "the top `cap` by graded reward". At most `cap` are kept.
 */
export function jointRanking<C extends RankCandidate>(
  candidates: readonly C[],
  opts: JointRankingOptions,
): RankedCandidate<C>[] {
  const graded = (c: C) => c.testScore !== null && Number.isFinite(c.testScore);
  const { rewards } = gradedRewards(
    candidates.map((c) => (graded(c) ? c.testScore : null)),
    opts.higherIsBetter,
    opts.bounds ?? {},
  );
  const seen = new Set<number>();
  const pre = candidates.map((c, i) => {
    const f = baselineFilter(
      { ...c, metricRange: opts.metricRange, leaderboardRange: opts.leaderboardRange },
      opts.maxGap,
    );
    const base = { c, i, reward: rewards[i]!, gap: f.gap };
    if (!graded(c)) return { ...base, reason: "invalid" as const };
    if (f.reason === "no-validation" || f.reason === "validation-test-gap") return { ...base, reason: f.reason };
    if (!(base.reward > 0)) return { ...base, reason: "zero-reward" as const };
    if (seen.has(c.testScore!)) return { ...base, reason: "duplicate-score" as const };
    seen.add(c.testScore!);
    return { ...base, reason: null };
  });
  const ranked = pre.filter((p) => p.reason === null).sort((a, b) => b.reward - a.reward || a.i - b.i);
  const rankOf = new Map(ranked.map((p, k) => [p.i, k + 1]));
  return pre.map((p) => {
    const out = { candidate: p.c, reward: p.reward, gap: p.gap };
    if (p.reason) return { ...out, rank: null, kept: false, reason: p.reason };
    const rank = rankOf.get(p.i)!;
    if (p.c.teacher === "secondary")
      return { ...out, rank, kept: rank === 1, reason: rank === 1 ? "kept" : "secondary-not-first" };
    return { ...out, rank, kept: rank <= opts.cap, reason: rank <= opts.cap ? "kept" : "below-cap" };
  });
}
