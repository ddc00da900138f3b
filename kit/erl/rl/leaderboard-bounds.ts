import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { METRICS, liteLeaderboardPath, type MetricDef, type TaskPackage } from "../../gym/index.js";
import { parseLeaderboardCsv } from "../../eval/index.js";

/**
 * Static reward bounds of a task (signed: higher is better; the paper's Fig. 6, reference code):
 *   best  = max(theoretical best, leaderboard max): the metric's best value in the registry (1 for accuracy,
 *           AUC, F1, QWK, R², MAP@k; 0 for rmse, rmsle, mae, log_loss), signed, and the leaderboard's best
 *           signed score; either alone when the other is unknown (a hand-written metric; no leaderboard);
 *           the metric is `metricKind` when a paper-format package names its metric by its class;
 *   worst = the last-placed team's signed score (so the static clamp only bites when the dynamic worst
 *           bound falls below every team on the leaderboard); none without a leaderboard.
 * `range` = max − min of the leaderboard scores (the gap penalty's scale for unbounded metrics).
 * The kit before this rule capped the best bound at the gold-medal threshold, which rewarded every score
 * above gold as 1; the reference code does not cap it.
 * Leaderboard: `<task>/leaderboard.csv`, else the bundled Lite one of its competitionId.
 */
export interface LeaderboardBounds {
  readonly staticBest: number;
  readonly staticWorst: number;
  readonly range: number;
}

export interface StaticBounds {
  readonly staticBest?: number;
  readonly staticWorst?: number;
  /** Leaderboard score range; null without a leaderboard. */
  readonly range: number | null;
}

/** The metric's best value signed as higher-is-better; null for a metric the registry does not know. */
export function theoreticalBest(metric: string, higherIsBetter: boolean): number | null {
  const def = (METRICS as Record<string, MetricDef>)[metric];
  if (!def) return null;
  return higherIsBetter ? def.best : 0 - def.best; // 0 − 0 is +0 (−0 would print as "-0")
}

/** max(theoretical, leaderboard best) of the known ones (signed); undefined when neither is known. */
export function staticBestBound(theoretical: number | null, leaderboardBest: number | null): number | undefined {
  const known = [theoretical, leaderboardBest].filter((x): x is number => x !== null && Number.isFinite(x));
  return known.length ? Math.max(...known) : undefined;
}

/** Signed leaderboard scores, best first: max → staticBest candidate, min → staticWorst; null with < 2 teams. */
export function leaderboardBounds(task: TaskPackage): LeaderboardBounds | null {
  const own = join(task.dir, "leaderboard.csv");
  const path = existsSync(own) ? own : task.meta.competitionId ? liteLeaderboardPath(task.meta.competitionId) : null;
  if (!path || !existsSync(path)) return null;
  const lb = parseLeaderboardCsv(readFileSync(path, "utf8"), path);
  const signed = lb.scores
    .map((s) => (task.meta.higherIsBetter ? s : -s))
    .filter(Number.isFinite)
    .sort((a, b) => b - a);
  if (signed.length < 2) return null;
  const theo = theoreticalBest(task.meta.metricKind ?? task.meta.metric, task.meta.higherIsBetter);
  return {
    staticBest: staticBestBound(theo, signed[0]!)!,
    staticWorst: signed[signed.length - 1]!,
    range: signed[0]! - signed[signed.length - 1]!,
  };
}

/** The task's static bounds: the leaderboard's (above), else the theoretical best alone (no worst bound). */
export function staticBounds(task: TaskPackage): StaticBounds {
  const lb = leaderboardBounds(task);
  if (lb) return lb;
  const best = staticBestBound(
    theoreticalBest(task.meta.metricKind ?? task.meta.metric, task.meta.higherIsBetter),
    null,
  );
  return { ...(best !== undefined ? { staticBest: best } : {}), range: null };
}
