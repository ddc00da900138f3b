// The corpus leaderboards on disk: <dir>/<task_id>/leaderboard.csv (teamId,score) and <dir>/manifest.json, and
// corpusLeaderboardsFor, which loads them for grading with a check that each was built on the task's package.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { EvalError } from "./errors.js";
import { loadLeaderboardFile, type Leaderboard } from "./leaderboard.js";
import { packageRoot } from "./package-root.js";

/** Default folder of the corpus leaderboards: <package root>/data/corpus-leaderboards. */
export function corpusLeaderboardsDir(): string {
  return join(packageRoot(), "data", "corpus-leaderboards");
}

/** An entry that is not on the leaderboard, and why. */
const LeftOff = z
  .object({
    name: z.string(),
    status: z.enum(["skipped", "error", "timeout", "invalid", "missing"]),
    message: z.string().nullable(),
  })
  .strict();

/** One task's leaderboard as manifest.json records it. */
const ManifestTask = z
  .object({
    /** packageHash of the task package the zoo ran on. */
    package_hash: z.string(),
    zoo_version: z.number().int(),
    zoo_hash: z.string(),
    metric: z.string(),
    higher_is_better: z.boolean(),
    /** Rows of leaderboard.csv (valid entries); below 2 no CSV is written (MLE-bench grading needs 2). */
    rows: z.number().int().min(0),
    /** Entries that ran and failed: error, timeout, invalid, missing. */
    invalid: z.number().int().min(0),
    /** Entries not run: no model for the task type, no features, or a size rule. */
    skipped: z.number().int().min(0),
    left_off: z.array(LeftOff),
    /** Wall seconds of the zoo run and its scoring. */
    build_seconds: z.number().min(0),
    /** ISO 8601, UTC. */
    built_at: z.string(),
  })
  .strict();
export type ManifestTask = z.infer<typeof ManifestTask>;

/** manifest.json: the zoo of the last build and every task's leaderboard, tasks by id. */
export const LeaderboardManifest = z
  .object({
    zoo_version: z.number().int(),
    zoo_hash: z.string(),
    /** The zoo's entries (the teamIds a leaderboard can hold). */
    entries: z.array(z.string()),
    tasks: z.record(z.string(), ManifestTask),
  })
  .strict();
export type LeaderboardManifest = z.infer<typeof LeaderboardManifest>;

export const manifestPath = (dir: string) => join(resolve(dir), "manifest.json");
export const leaderboardPath = (dir: string, taskId: string) => join(resolve(dir), taskId, "leaderboard.csv");

/** The manifest at `dir`, or null when there is none; a file that is not a manifest throws EvalError. */
export function readLeaderboardManifest(dir = corpusLeaderboardsDir()): LeaderboardManifest | null {
  const path = manifestPath(dir);
  if (!existsSync(path)) return null;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new EvalError(`${path} is not valid JSON (${(e as Error).message}); rebuild with openmle leaderboards build`);
  }
  const parsed = LeaderboardManifest.safeParse(json);
  if (!parsed.success)
    throw new EvalError(
      `${path} is not a leaderboard manifest: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; ")}`,
    );
  return parsed.data;
}

/** Write a file through a temporary one, so a reader never sees half of it. */
export function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** Write the manifest: tasks sorted by id, 2-space JSON, a final newline. */
export function writeLeaderboardManifest(dir: string, manifest: LeaderboardManifest): string {
  const sorted = Object.fromEntries(Object.entries(manifest.tasks).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const path = manifestPath(dir);
  writeAtomic(path, `${JSON.stringify(LeaderboardManifest.parse({ ...manifest, tasks: sorted }), null, 2)}\n`);
  return path;
}

export interface CorpusLeaderboardsOptions {
  /** The leaderboards' folder (default corpusLeaderboardsDir()). */
  readonly dir?: string;
  /**
   * The package hash a task has now, or null when it is not known here. A leaderboard built on another hash
   * is left out (its task is then ungraded) with a warning.
   */
  readonly packageHashOf?: (taskId: string) => string | null;
  /** Told of every leaderboard left out, and why. */
  readonly onWarning?: (message: string) => void;
}

/**
 * The corpus leaderboards of `taskIds` that exist (manifest entry and leaderboard.csv), by task id; `source` is
 * `corpus:<task id>`. Left out, with a warning: a leaderboard whose package hash differs from the task's current
 * one (packageHashOf), since grading against another package's scores would be silently wrong. Tasks without a
 * leaderboard are simply absent (they stay ungraded).
 */
export function corpusLeaderboardsFor(
  taskIds: Iterable<string>,
  opts: CorpusLeaderboardsOptions = {},
): Map<string, Leaderboard> {
  const dir = opts.dir ?? corpusLeaderboardsDir();
  const out = new Map<string, Leaderboard>();
  const manifest = readLeaderboardManifest(dir);
  if (!manifest) return out;
  for (const id of new Set(taskIds)) {
    const m = manifest.tasks[id];
    const file = leaderboardPath(dir, id);
    if (!m || m.rows < 2 || !existsSync(file)) continue;
    const now = opts.packageHashOf?.(id) ?? null;
    if (now !== null && now !== m.package_hash) {
      opts.onWarning?.(
        `the corpus leaderboard of ${id} was built on package ${m.package_hash}, the task's package is now ${now}: ` +
          `left out (the task is ungraded); rebuild it with openmle leaderboards build --tasks ${id}`,
      );
      continue;
    }
    out.set(id, { ...loadLeaderboardFile(file), source: `corpus:${id}` });
  }
  return out;
}
