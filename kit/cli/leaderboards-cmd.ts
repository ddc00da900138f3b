// `openmle leaderboards build`: a leaderboard for every corpus task from the kit's reference zoo
// (kit/eval/corpus-leaderboards.ts), so Medal Average and Human Rank apply to tasks without a Kaggle leaderboard.
import type { Command } from "commander";
import {
  buildCorpusLeaderboards,
  corpusLeaderboardsDir,
  ZOO_ENTRIES,
  type BuildLeaderboardsOptions,
  type BuildLeaderboardsResult,
  type LeaderboardEvent,
} from "../eval/index.js";
import { expandTaskList, readCorpusIndex, SealedSuiteError } from "../gym/index.js";
import { printableLine } from "../util/index.js";
import { intFlag, numberFlag } from "./numeric-flag.js";
import { output, UsageError } from "./run-cli.js";

/**
 * Progress lines on stderr, one per task: `leaderboard npm-vega-cars-origin: 24 rows, 1 invalid, 0 skipped,
 * 12.3 s (3 of 85)`; `… up to date (4 of 85)`; `… failed: <message> (5 of 85)`.
 */
export function leaderboardProgress(write: (s: string) => void = (s) => void process.stderr.write(s)) {
  return (e: LeaderboardEvent): void => {
    const of = (x: { done: number; total: number }) => `(${x.done} of ${x.total})`;
    if (e.type === "start")
      write(`reference zoo ${e.zooHash} (${ZOO_ENTRIES.length} entries): ${e.tasks} tasks, ${e.jobs} at once\n`);
    if (e.type === "task-up-to-date") write(`leaderboard ${printableLine(e.taskId)}: up to date ${of(e)}\n`);
    if (e.type === "task-done")
      write(
        `leaderboard ${printableLine(e.taskId)}: ${e.rows} rows, ${e.invalid} invalid, ${e.skipped} skipped, ` +
          `${e.seconds.toFixed(1)} s ${of(e)}\n`,
      );
    if (e.type === "task-failed")
      write(`leaderboard ${printableLine(e.taskId)}: failed: ${printableLine(e.message)} ${of(e)}\n`);
  };
}

/**
 * The task list of --suite and --tasks: `suite:NAME` items expanded through the corpus index (never built here).
 * The sealed confirm suite (suite:confirm, or its tasks' ids) only with `includeConfirm` (--include-confirm): a
 * leaderboard is not a result of a policy under test, but asking for it is explicit.
 */
export async function leaderboardTasks(
  suite: string | undefined,
  tasks: string | undefined,
  includeConfirm = false,
): Promise<string[]> {
  const suites = (suite ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => `suite:${s}`);
  const list = [...suites, ...(tasks ? [tasks] : [])].join(",");
  if (!list.trim()) throw new UsageError("leaderboards build: name the tasks with --suite NAMES or --tasks IDS");
  try {
    return await expandTaskList(list, { loadIndex: () => readCorpusIndex(), allowConfirm: includeConfirm });
  } catch (e) {
    if (!(e instanceof SealedSuiteError)) throw e;
    throw new UsageError(`${e.message}; a leaderboard is no such result: pass --include-confirm to build it`);
  }
}

type Build = (tasks: readonly string[], opts: BuildLeaderboardsOptions) => Promise<BuildLeaderboardsResult>;

export function registerLeaderboards(program: Command, build: Build = buildCorpusLeaderboards): void {
  const lb = program
    .command("leaderboards")
    .description("Leaderboards of the kit's reference zoo for tasks without a Kaggle leaderboard (corpus tasks)");
  lb.command("build")
    .description(
      "Run the reference zoo on each task in the sandbox, score every entry with the task's hidden metric and write " +
        "<out>/<task>/leaderboard.csv (teamId,score, best first) and <out>/manifest.json; up-to-date tasks are skipped",
    )
    .option("--suite <names>", "comma-separated corpus suites (openmle task list --suite NAME), e.g. dev,confirm")
    .option("--tasks <list>", "comma-separated task ids, package folders or suite:NAME items")
    .option("--jobs <n>", "tasks whose zoo runs at once (one CPU thread each)", "2")
    .option("--out <dir>", "output folder (default data/corpus-leaderboards of the kit)")
    .option("--entry-timeout <s>", "seconds one zoo entry may take before it is killed and left off", "60")
    .option("--include-confirm", "allow the sealed suite:confirm and its tasks (a leaderboard grades; it is no result)")
    .option("--rebuild", "rebuild tasks whose package and zoo are unchanged")
    .option("--json", "machine-readable output: built, up-to-date and failed tasks")
    .action(
      async (o: {
        suite?: string;
        tasks?: string;
        jobs: string;
        out?: string;
        entryTimeout: string;
        includeConfirm?: boolean;
        rebuild?: boolean;
        json?: boolean;
      }) => {
        const jobs = intFlag("jobs", o.jobs, { min: 1, max: 32 });
        const entryTimeoutS = numberFlag("entry-timeout", o.entryTimeout, { min: 1, max: 3600 });
        const ids = await leaderboardTasks(o.suite, o.tasks, !!o.includeConfirm);
        if (!ids.length) throw new UsageError("leaderboards build: the task list is empty");
        const r = await build(ids, {
          ...(o.out ? { out: o.out } : {}),
          config: { jobs, rebuild: !!o.rebuild, zoo: { entryTimeoutS } },
          onEvent: o.json ? undefined : leaderboardProgress(),
        });
        output(
          !!o.json,
          { out: r.out, manifest: r.manifest, built: r.built, up_to_date: r.upToDate, failed: r.failed },
          () =>
            [
              `${r.built.length} leaderboards built, ${r.upToDate.length} up to date, ${r.failed.length} failed; ` +
                `${r.out === corpusLeaderboardsDir() ? "data/corpus-leaderboards" : r.out} (manifest ${r.manifest})`,
              ...r.failed.map((f) => `failed ${printableLine(f.taskId)}: ${printableLine(f.message)}`),
            ].join("\n"),
        );
        if (r.failed.length) process.exitCode = 1;
      },
    );
}
