import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { liteLeaderboardPath, type TaskPackage } from "../../gym/index.js";
import { medalPositions, parseLeaderboardCsv } from "../../eval/index.js";

/**
 * Static reward bounds from a task's leaderboard (signed: higher is better):
 *   best  = the gold-medal threshold score (MLE-bench's gold position for the leaderboard's size);
 *   worst = the last-placed team's score (so the static clamp only bites when the dynamic worst
 *           bound falls below every team on the leaderboard).
 * `range` = max − min of the leaderboard scores (the gap penalty's scale for unbounded metrics).
 * No leaderboard (`<task>/leaderboard.csv`, else the bundled Lite one of its competitionId) → null.
 */
export interface LeaderboardBounds {
  readonly staticBest: number;
  readonly staticWorst: number;
  readonly range: number;
}

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
  const gold = signed[medalPositions(signed.length).gold - 1]!;
  return { staticBest: gold, staticWorst: signed[signed.length - 1]!, range: signed[0]! - signed[signed.length - 1]! };
}
