// The leaderboards that grade an experiment's cells (Medal Average, Human Rank): kit/eval's leaderboardsFor (the
// bundled MLE-bench Lite one, else the corpus leaderboard built on the task's package), a package imported from
// MLE-bench graded by its competition id. A task with none has no medal and no Human Rank (those measures leave it
// out).
import { createHash } from "node:crypto";
import { gradeScore, leaderboardsFor, liteLeaderboardsFor, type Leaderboard } from "../eval/index.js";
import type { Medal } from "./arm-measures.js";

/**
 * Task id → its leaderboard. `packageHash` is the package the task has now (the plan's): a corpus leaderboard built
 * on another package is left out, with `onWarning` saying so.
 */
export function taskLeaderboards(
  tasks: readonly { readonly id: string; readonly competitionId?: string; readonly packageHash?: string }[],
  onWarning?: (message: string) => void,
): Map<string, Leaderboard> {
  const byCompetition = liteLeaderboardsFor(tasks.flatMap((t) => (t.competitionId ? [t.competitionId] : [])));
  const out = new Map<string, Leaderboard>();
  for (const t of tasks) {
    const lb = t.competitionId ? byCompetition.get(t.competitionId) : undefined;
    if (lb) out.set(t.id, lb);
  }
  const hashes = new Map(tasks.map((t) => [t.id, t.packageHash ?? null]));
  const rest = tasks.filter((t) => !out.has(t.id)).map((t) => t.id);
  for (const [id, lb] of leaderboardsFor(rest, { packageHashOf: (id) => hashes.get(id) ?? null, onWarning }))
    out.set(id, lb);
  return out;
}

/**
 * A cell's grade on its task's leaderboard (kit/eval gradeScore): its best medal ("none" below bronze or without a
 * graded score) and Human Rank (0 without a graded score); both null when the task has no leaderboard.
 */
export function gradeOn(
  lb: Leaderboard | undefined,
  testScore: number | null,
): { readonly medal: Medal | null; readonly humanRank: number | null } {
  if (!lb) return { medal: null, humanRank: null };
  const r = gradeScore(lb, testScore);
  const medal = r.gold_medal ? "gold" : r.silver_medal ? "silver" : r.bronze_medal ? "bronze" : "none";
  return { medal, humanRank: r.human_rank ?? 0 };
}

/**
 * What pins a leaderboard in a plan: sha256 (16 hex digits) of its scores and team ids in rank order, so a run refuses
 * a leaderboard rebuilt since registration (the medal lines and Human Rank would move under the registered result).
 */
export function leaderboardHash(lb: Leaderboard): string {
  const text = JSON.stringify({ scores: lb.scores, teamIds: lb.teamIds ?? [] });
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}
