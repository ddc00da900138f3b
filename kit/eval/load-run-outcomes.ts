import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  METRICS,
  packageHash,
  peekConfirmIds,
  readCorpusIndex,
  storedTaskPackages,
  TASK_JSON,
  type MetricDef,
  type TaskPackage,
} from "../gym/index.js";
import { configHash, type Workspace } from "../store/index.js";
import { corpusLeaderboardsFor, type CorpusLeaderboardsOptions } from "./corpus-leaderboards-manifest.js";
import { readFinishedRuns, readNodeScores } from "./eval-store.js";
import { evaluateRuns, type EvaluateOptions, type Evaluation, type RunOutcome } from "./evaluate-runs.js";
import { liteCompetitionIds, loadLiteLeaderboard, type Leaderboard } from "./leaderboard.js";

const parseJson = (v: unknown): Record<string, unknown> => {
  if (v === null || v === undefined) return {};
  if (typeof v === "string") {
    try {
      const o = JSON.parse(v) as unknown;
      return o && typeof o === "object" ? (o as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return typeof v === "object" ? (v as Record<string, unknown>) : {};
};
/** configHash of a stored config with `seed` removed; null when there is no config object. */
function seedlessHash(config: unknown): string | null {
  const c = parseJson(config);
  if (!Object.keys(c).length) return null;
  const { seed: _seed, ...rest } = c;
  return configHash(rest);
}
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * Read every run that is not still running, with its final score:
 * 1. `runs.summary.test_score` (or `summary.champion.testScore`, kit/evo's RunSummary) when recorded;
 * 2. else the test score of `runs.summary.champion_node_id` (or `summary.champion.nodeId`);
 * 3. else the test score of the run's best successful node by validation score (direction from `tasks`).
 * Tasks missing from the `tasks` table count as modality "other", higher-is-better.
 * `config_hash` is recomputed from `runs.config` without its `seed`, so runs that differ only by seed
 * (the independent repeats of avg@k) share it; a run without a stored config keeps `runs.config_hash`.
 */
export async function loadRunOutcomes(ws: Workspace): Promise<RunOutcome[]> {
  const runs = await readFinishedRuns(ws);
  const nodes = await readNodeScores(ws);
  const byRun = new Map<string, typeof nodes>();
  for (const n of nodes) byRun.set(n.run_id, [...(byRun.get(n.run_id) ?? []), n]);

  return runs.map((r) => {
    const summary = parseJson(r.summary);
    const hib = r.higher_is_better === null || r.higher_is_better === undefined ? true : Boolean(r.higher_is_better);
    const own = byRun.get(String(r.run_id)) ?? [];
    const ok = own.filter((n) => n.status === "success" && num(n.valid_score) !== null);
    const champ = parseJson(summary.champion);
    let score = num(summary.test_score) ?? num(champ.testScore);
    const champId =
      typeof summary.champion_node_id === "string"
        ? summary.champion_node_id
        : typeof champ.nodeId === "string"
          ? champ.nodeId
          : null;
    if (score === null && champId !== null) score = num(own.find((n) => n.node_id === champId)?.test_score);
    if (score === null && ok.length) {
      const best = ok.reduce((a, b) =>
        (hib ? b.valid_score! > a.valid_score! : b.valid_score! < a.valid_score!) ? b : a,
      );
      score = num(best.test_score);
    }
    return {
      run_id: String(r.run_id),
      task_id: String(r.task_id),
      harness: String(r.harness ?? "unknown"),
      policy: String(r.policy ?? "unknown"),
      config_hash: seedlessHash(r.config) ?? String(r.config_hash ?? ""),
      seed: num(r.seed),
      modality: String(r.modality ?? "other"),
      higher_is_better: hib,
      score,
      submission_exists: score !== null || ok.length > 0,
    };
  });
}

/** Leaderboards for the task ids that are MLE-bench Lite competitions (bundled data). */
export function liteLeaderboardsFor(taskIds: Iterable<string>): Map<string, Leaderboard> {
  const lite = new Set(liteCompetitionIds());
  const out = new Map<string, Leaderboard>();
  for (const id of taskIds) if (lite.has(id)) out.set(id, loadLiteLeaderboard(id));
  return out;
}

/**
 * Every leaderboard `taskIds` have: the bundled MLE-bench Lite one for a Lite competition, else the kit's corpus
 * leaderboard (data/corpus-leaderboards, built by the reference zoo: corpus-leaderboards.ts) when there is one
 * built on the task's current package (`opts.packageHashOf`; a mismatch is left out with a warning).
 */
export function leaderboardsFor(
  taskIds: Iterable<string>,
  opts: CorpusLeaderboardsOptions = {},
): Map<string, Leaderboard> {
  const ids = [...new Set(taskIds)];
  const out = liteLeaderboardsFor(ids);
  for (const [id, lb] of corpusLeaderboardsFor(
    ids.filter((id) => !out.has(id)),
    opts,
  ))
    out.set(id, lb);
  return out;
}

/** The metric's perfect score (registry `best`) for a task's metric, or null for a metric outside the registry. */
export function perfectScore(meta: Pick<TaskPackage["meta"], "metric" | "metricKind">): number | null {
  return (METRICS as Record<string, MetricDef>)[meta.metricKind ?? meta.metric]?.best ?? null;
}

/**
 * The package hash each task has here: its stored folder's (the tasks row's `dir`, when it still holds a
 * package), else the corpus index's `package_hash`, else null (unknown: the leaderboard is not checked).
 * Computed only for the tasks asked about (those with a corpus leaderboard), once each.
 */
async function packageHashes(stored: readonly TaskPackage[]): Promise<(taskId: string) => string | null> {
  const dirs = new Map(stored.map((t) => [t.meta.id, t.dir]));
  const index = await readCorpusIndex().catch(() => null);
  const byIndex = new Map((index?.tasks ?? []).map((t) => [t.id, t.packageHash]));
  const memo = new Map<string, string | null>();
  const ofDir = (id: string): string | null => {
    const dir = dirs.get(id);
    if (!dir || !existsSync(join(dir, TASK_JSON))) return null;
    try {
      return packageHash(dir);
    } catch {
      return null; // unreadable here: fall back to the index
    }
  };
  return (id) => {
    if (!memo.has(id)) memo.set(id, ofDir(id) ?? byIndex.get(id) ?? null);
    return memo.get(id)!;
  };
}

/** evaluate()'s options: evaluateRuns' and the runs to evaluate. */
export interface EvaluateWorkspaceOptions extends EvaluateOptions {
  /** Evaluate only these runs (default: every run of the workspace). */
  readonly runIds?: readonly string[];
}

/**
 * evaluate(workspace): Valid Rate, Medal Average and Human Rank (avg@k), grade distribution and
 * per-modality rates of every run in the workspace. Unless `opts.leaderboards` says otherwise, tasks that are
 * MLE-bench Lite competitions are graded against their bundled leaderboards and corpus tasks against their
 * corpus leaderboards (leaderboardsFor; one built on another package is left out, and `warnings` says so).
 * Baselines without `perfect` get the perfect score of the task's stored metric (for the weak-reference flag).
 * `runIds`: only those runs (a report of one run, `openmle evaluate --run`), graded as above and averaged over
 * themselves; the warnings are those of their tasks.
 */
export async function evaluate(ws: Workspace, opts: EvaluateWorkspaceOptions = {}): Promise<Evaluation> {
  // Runs on the sealed suite:confirm's tasks (a registered experiment's searches) are read only through
  // `openmle experiment show`, which logs the look: they are left out here, and a warning says how many.
  const confirm = peekConfirmIds();
  const keep = opts.runIds ? new Set(opts.runIds) : null;
  const all = (await loadRunOutcomes(ws)).filter((o) => !keep || keep.has(o.run_id));
  const outcomes = all.filter((o) => !confirm.has(o.task_id));
  const ids = [...new Set(outcomes.map((o) => o.task_id))];
  const stored = await storedTaskPackages(ws, ids);
  const warnings: string[] = [];
  if (outcomes.length < all.length)
    warnings.push(
      `${all.length - outcomes.length} run(s) on tasks of the sealed suite:confirm left out: read them through ` +
        "their registered experiment (openmle experiment list; openmle experiment show ID)",
    );
  const leaderboards =
    opts.leaderboards ??
    leaderboardsFor(ids, {
      packageHashOf: await packageHashes(stored),
      onWarning: (m) => warnings.push(m),
      ...(opts.corpusLeaderboardsDir ? { dir: opts.corpusLeaderboardsDir } : {}),
    });
  const metaOf = new Map(stored.map((t) => [t.meta.id, t.meta]));
  const baselines = opts.baselines
    ? Object.fromEntries(
        Object.entries(opts.baselines).map(([id, b]) => {
          const meta = metaOf.get(id);
          return [id, b.perfect === undefined && meta ? { ...b, perfect: perfectScore(meta) } : b];
        }),
      )
    : undefined;
  const ev = evaluateRuns(outcomes, { ...opts, leaderboards, ...(baselines ? { baselines } : {}) });
  return warnings.length ? { ...ev, warnings } : ev;
}
