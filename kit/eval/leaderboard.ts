import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { csvParseRows } from "d3-dsv";
import { LeaderboardFormatError, UnknownCompetitionError } from "./errors.js";
import { packageRoot } from "./package-root.js";

/** A leaderboard in final rank order (best first), as MLE-bench reads it. */
export interface Leaderboard {
  /** Where it came from (a competition id or a file path), for messages and reports. */
  readonly source: string;
  /** The `score` column, row order kept. */
  readonly scores: readonly number[];
  /** The `teamId` column when present. */
  readonly teamIds?: readonly string[];
}

/** Folder of the bundled MLE-bench Lite leaderboards: <package root>/data/mlebench-lite. */
export function liteDataDir(): string {
  return join(packageRoot(), "data", "mlebench-lite");
}

/** The 22 MLE-bench Lite competition ids (from competitions.txt, else the folders present). */
export function liteCompetitionIds(dataDir = liteDataDir()): string[] {
  const list = join(dataDir, "competitions.txt");
  if (existsSync(list)) {
    return readFileSync(list, "utf8")
      .split(/\r?\n/)
      .map((s) => s.trim())
      .filter((s) => s && !s.startsWith("#"));
  }
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((d) => existsSync(join(dataDir, d, "leaderboard.csv")))
    .sort();
}

/**
 * Parse leaderboard CSV text. Needs a `score` column (MLE-bench's) with a number in every row and
 * at least 2 rows (direction is read from the first and last rows).
 */
export function parseLeaderboardCsv(text: string, source = "<csv>"): Leaderboard {
  // d3-dsv reads RFC 4180 CSV (quoted fields with commas, quotes and newlines); blank lines are skipped.
  const lines = csvParseRows(text.replace(/^\uFEFF/, "")).filter((r) => r.some((c) => c.trim() !== ""));
  if (lines.length === 0)
    throw new LeaderboardFormatError(source, "is empty; expected a header with a 'score' column and at least 2 rows.");
  const header = lines[0]!.map((h) => h.trim());
  const scoreCol = header.indexOf("score");
  if (scoreCol < 0) {
    throw new LeaderboardFormatError(
      source,
      `has no 'score' column (columns: ${header.join(", ")}). MLE-bench leaderboards have ` +
        `scoreNullable,teamId,hasTeamName,submissionDate,score,hasScore.`,
    );
  }
  const teamCol = header.indexOf("teamId");
  const scores: number[] = [];
  const teamIds: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const cells = lines[i]!;
    const raw = (cells[scoreCol] ?? "").trim();
    const v = raw === "" ? NaN : Number(raw);
    if (!Number.isFinite(v))
      throw new LeaderboardFormatError(
        source,
        `row ${i + 1} has score "${raw}", not a finite number. Remove the row or fix the value.`,
      );
    scores.push(v);
    if (teamCol >= 0) teamIds.push((cells[teamCol] ?? "").trim());
  }
  if (scores.length < 2)
    throw new LeaderboardFormatError(
      source,
      `has ${scores.length} row(s); grading needs at least 2 (direction is read from the first and last).`,
    );
  return teamCol >= 0 ? { source, scores, teamIds } : { source, scores };
}

/** Read a leaderboard CSV file. */
export function loadLeaderboardFile(path: string): Leaderboard {
  const p = resolve(path);
  if (!existsSync(p) || !statSync(p).isFile())
    throw new LeaderboardFormatError(p, "does not exist or is not a file. Pass the path of a leaderboard CSV.");
  return parseLeaderboardCsv(readFileSync(p, "utf8"), p);
}

const cache = new Map<string, Leaderboard>();
/** The bundled leaderboard of one MLE-bench Lite competition; an unknown id lists the valid ones. */
export function loadLiteLeaderboard(competitionId: string, dataDir = liteDataDir()): Leaderboard {
  const key = `${dataDir}\0${competitionId}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const ids = liteCompetitionIds(dataDir);
  if (!ids.includes(competitionId)) throw new UnknownCompetitionError(competitionId, ids);
  const lb = { ...loadLeaderboardFile(join(dataDir, competitionId, "leaderboard.csv")), source: competitionId };
  cache.set(key, lb);
  return lb;
}
