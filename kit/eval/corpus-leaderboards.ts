import { existsSync, rmSync } from "node:fs";
import { z } from "zod";
import { packageHash, resolveTask, type TaskPackage } from "../gym/index.js";
import { persistentScorer, type Executor, type SandboxLimits, type Scorer } from "../sandbox/index.js";
import {
  corpusLeaderboardsDir,
  leaderboardPath,
  readLeaderboardManifest,
  writeAtomic,
  writeLeaderboardManifest,
  type LeaderboardManifest,
  type ManifestTask,
} from "./corpus-leaderboards-manifest.js";
import { leaderboardCsv, rankEntries } from "./corpus-leaderboards-rank.js";
import { ReferenceZooConfig, ZOO_ENTRIES, ZOO_VERSION, zooHash } from "./reference-zoo.js";
import { runReferenceZoo, type ZooRun } from "./reference-zoo-run.js";

/** Settings of a leaderboard build. */
export const BuildLeaderboardsConfig = z
  .object({
    /** Tasks whose zoo runs at once (each zoo program uses one CPU thread). */
    jobs: z.number().int().min(1).max(32).default(2).describe("Tasks whose zoo runs at once (one thread each)"),
    /** Rebuild every task, even one whose package hash and zoo hash match the manifest. */
    rebuild: z.boolean().default(false).describe("Rebuild tasks that are up to date"),
    /** The zoo's settings (part of its hash). */
    zoo: ReferenceZooConfig.prefault({}).describe("The reference zoo's settings"),
  })
  .strict();
export type BuildLeaderboardsConfigInput = z.input<typeof BuildLeaderboardsConfig>;

/** Progress of a build (the CLI prints them). */
export type LeaderboardEvent =
  | { readonly type: "start"; readonly tasks: number; readonly jobs: number; readonly zooHash: string }
  | { readonly type: "task-up-to-date"; readonly taskId: string; readonly done: number; readonly total: number }
  | { readonly type: "task-start"; readonly taskId: string }
  | {
      readonly type: "task-done";
      readonly taskId: string;
      readonly rows: number;
      readonly invalid: number;
      readonly skipped: number;
      readonly seconds: number;
      readonly done: number;
      readonly total: number;
    }
  | {
      readonly type: "task-failed";
      readonly taskId: string;
      readonly message: string;
      readonly done: number;
      readonly total: number;
    }
  | {
      readonly type: "done";
      readonly built: number;
      readonly upToDate: number;
      readonly failed: number;
      readonly seconds: number;
    };

export interface BuildLeaderboardsOptions {
  /** Output folder (default data/corpus-leaderboards under the package root). */
  readonly out?: string;
  readonly config?: BuildLeaderboardsConfigInput;
  /** Limits of each zoo program (default reference-zoo-run.ts ZOO_LIMITS). */
  readonly limits?: Partial<SandboxLimits>;
  readonly executor?: Executor;
  /** Hidden-test scorer (default: one persistent sandboxed scorer for the build, closed at its end). */
  readonly scorer?: Scorer;
  readonly onEvent?: (e: LeaderboardEvent) => void;
  /** Runs the zoo on one task (default runReferenceZoo); tests pass a stand-in. */
  readonly runZoo?: (task: TaskPackage, scorer: Scorer | undefined) => Promise<Pick<ZooRun, "entries" | "seconds">>;
  readonly now?: () => Date;
}

export interface BuildLeaderboardsResult {
  readonly out: string;
  readonly manifest: string;
  readonly built: readonly string[];
  readonly upToDate: readonly string[];
  readonly failed: readonly { readonly taskId: string; readonly message: string }[];
}

/**
 * Build the leaderboards of `tasks` (ids, folders or packages) from the reference zoo:
 * 1. resolve each task and its package hash; one whose manifest entry has the same package hash and zoo hash
 *    (and whose CSV exists when it has ≥ 2 rows) is up to date and skipped, unless `rebuild`;
 * 2. run the zoo on the others, `jobs` tasks at once (runReferenceZoo: one sandbox program per task, every
 *    entry's submission scored by the task's hidden metric);
 * 3. rank the valid entries best first (rankEntries) and write <out>/<task>/leaderboard.csv (teamId,score), or
 *    remove a stale one when fewer than 2 entries are valid;
 * 4. record the task in <out>/manifest.json after each task (a stopped build keeps what it finished).
 * A task that cannot be resolved or whose zoo run throws is reported failed; the others go on.
 */
export async function buildCorpusLeaderboards(
  tasks: readonly (string | TaskPackage)[],
  opts: BuildLeaderboardsOptions = {},
): Promise<BuildLeaderboardsResult> {
  const t0 = performance.now();
  const cfg = BuildLeaderboardsConfig.parse(opts.config ?? {});
  const out = opts.out ?? corpusLeaderboardsDir();
  const hash = zooHash(cfg.zoo);
  const now = opts.now ?? (() => new Date());
  const emit = (e: LeaderboardEvent) => opts.onEvent?.(e);
  const old = readLeaderboardManifest(out);
  const manifest: LeaderboardManifest = {
    zoo_version: ZOO_VERSION,
    zoo_hash: hash,
    entries: ZOO_ENTRIES.map((x) => x.name),
    tasks: { ...(old?.tasks ?? {}) },
  };
  emit({ type: "start", tasks: tasks.length, jobs: cfg.jobs, zooHash: hash });

  const own = !opts.scorer && !opts.runZoo && !opts.executor ? persistentScorer({ maxWorkers: cfg.jobs }) : undefined;
  const scorer = opts.scorer ?? own;
  const built: string[] = [];
  const upToDate: string[] = [];
  const failed: { taskId: string; message: string }[] = [];
  let done = 0;
  const total = tasks.length;
  const runZoo =
    opts.runZoo ??
    ((task: TaskPackage, s: Scorer | undefined) =>
      runReferenceZoo(task, {
        config: cfg.zoo,
        ...(s ? { scorer: s } : {}),
        ...(opts.limits ? { limits: opts.limits } : {}),
        ...(opts.executor ? { executor: opts.executor } : {}),
      }));

  const one = async (item: string | TaskPackage): Promise<void> => {
    const label = typeof item === "string" ? item : item.meta.id;
    try {
      // A leaderboard is no result of a policy under test: building one for a task of the sealed confirm suite is
      // allowed (callers that take task lists from users decide whether to expand suite:confirm).
      const task = typeof item === "string" ? await resolveTask(item, { allowConfirm: true }) : item;
      const id = task.meta.id;
      const pkg = packageHash(task.dir);
      const prev = manifest.tasks[id];
      const current =
        prev &&
        prev.package_hash === pkg &&
        prev.zoo_hash === hash &&
        (prev.rows < 2 || existsSync(leaderboardPath(out, id)));
      if (current && !cfg.rebuild) {
        upToDate.push(id);
        emit({ type: "task-up-to-date", taskId: id, done: ++done, total });
        return;
      }
      emit({ type: "task-start", taskId: id });
      const run = await runZoo(task, scorer);
      const rows = rankEntries(
        run.entries.map((x) => ({ name: x.name, score: x.status === "ok" ? x.score : null })),
        task.meta.higherIsBetter,
      );
      const file = leaderboardPath(out, id);
      if (rows.length >= 2) writeAtomic(file, leaderboardCsv(rows));
      else rmSync(file, { force: true });
      const leftOff = run.entries.filter((x) => x.status !== "ok" || x.score === null);
      const entry: ManifestTask = {
        package_hash: pkg,
        zoo_version: ZOO_VERSION,
        zoo_hash: hash,
        metric: task.meta.metricKind ?? task.meta.metric,
        higher_is_better: task.meta.higherIsBetter,
        rows: rows.length,
        invalid: leftOff.filter((x) => x.status !== "skipped").length,
        skipped: leftOff.filter((x) => x.status === "skipped").length,
        left_off: leftOff.map((x) => ({
          name: x.name,
          status: x.status === "ok" ? "invalid" : x.status,
          message: x.message,
        })),
        build_seconds: Math.round(run.seconds * 10) / 10,
        built_at: now().toISOString(),
      };
      manifest.tasks[id] = entry;
      writeLeaderboardManifest(out, manifest);
      built.push(id);
      emit({
        type: "task-done",
        taskId: id,
        rows: rows.length,
        invalid: entry.invalid,
        skipped: entry.skipped,
        seconds: entry.build_seconds,
        done: ++done,
        total,
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      failed.push({ taskId: label, message });
      emit({ type: "task-failed", taskId: label, message, done: ++done, total });
    }
  };

  try {
    let next = 0;
    const worker = async () => {
      while (next < tasks.length) await one(tasks[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(cfg.jobs, Math.max(tasks.length, 1)) }, worker));
  } finally {
    await own?.close();
  }
  const path = writeLeaderboardManifest(out, manifest);
  emit({
    type: "done",
    built: built.length,
    upToDate: upToDate.length,
    failed: failed.length,
    seconds: (performance.now() - t0) / 1000,
  });
  return { out, manifest: path, built, upToDate, failed };
}
