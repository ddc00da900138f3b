// Running a search experiment's cells: one evolve run per arm × task × repeat, named by the cell, so a finished
// cell is read back and a killed one resumes (erl/loop's evolveRun); each task's hidden test score normalised
// against kit/eval's trivial and reference baselines.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  evolveRun,
  heldoutBaselines,
  normalisableTasks,
  normalisedUnder,
  resolvePolicyParams,
  type Baselines,
} from "../erl/index.js";
import {
  gradeScore,
  humanRank,
  isLowerBetter,
  leaderboardsFor,
  liteCompetitionIds,
  perfectScore,
  weakReference,
  type Leaderboard,
} from "../eval/index.js";
import {
  ensureCorpus,
  expandTaskList,
  metricDirections,
  packageHash,
  resolveTask,
  TASK_JSON,
  type TaskPackage,
} from "../gym/index.js";
import type { LanguageModel } from "../llm/index.js";
import { createCheckpointPolicy, createLlmPolicy, type Policy } from "../policy/index.js";
import { readStoredRun } from "../evo/index.js";
import type { Workspace } from "../store/index.js";
import { writeCell } from "./cell-store.js";
import { ReproduceError } from "./errors.js";
import type { ArmSpec, ExperimentPreset, ExperimentSpec, ReproducePreset, TaskSet } from "./experiment-spec.js";
import { planExperiment } from "./plan.js";
import { armCheckpoint, type RunnerOptions } from "./runner-common.js";

/** One finished cell: the champion of its run, normalised (null: no baselines for the task, or no champion). */
export interface CellResult {
  readonly arm: string;
  readonly task: string;
  readonly repeat: number;
  readonly runId: string;
  /** The run was finished before this call (nothing re-executed). */
  readonly cached: boolean;
  readonly validRate: number;
  readonly testScore: number | null;
  readonly normalized: number | null;
  /**
   * The task's score can be normalised: kit/eval has trivial and reference baselines for it and the reference
   * beats the trivial one (erl's `normalisableTasks`, the loop's rule). Other tasks stay out of the mean score.
   */
  readonly normalisable: boolean;
  /** kit/eval's reference baseline's hidden test score on the task (the NatureBench-style SOTA), or null. */
  readonly reference: number | null;
  /**
   * The reference closes under 10 % of the way from the trivial score to a perfect one, so the task's normalised
   * score says little (kit/eval weakReference). Null or absent: not known (no baselines or no perfect score; cells
   * read back from reproduce_cells, which has no column for it).
   */
  readonly weakReference?: boolean | null;
  readonly higherIsBetter: boolean;
  /** The task's modality (the per-modality layout's rows). */
  readonly modality: string;
  /**
   * The champion's medal on the task's leaderboard (`medalGrade`): the MLE-bench Lite one, else the kit's corpus
   * leaderboard (kit/eval leaderboardsFor: the reference zoo's, the kit's construction); null when it has neither.
   */
  readonly grade: Medal | null;
  /** The champion's Human Rank on that leaderboard (0 without a champion); null without one. */
  readonly humanRank: number | null;
}

export type Medal = "gold" | "silver" | "bronze" | "none";

/**
 * The champion's grade on a leaderboard (kit/eval gradeScore): its best medal, "none" below bronze or without a
 * champion; Human Rank = share of the leaderboard it beats (0 without a champion).
 */
export function medalGrade(lb: Leaderboard, testScore: number | null): { grade: Medal; humanRank: number } {
  const r = gradeScore(lb, testScore);
  const grade = r.gold_medal ? "gold" : r.silver_medal ? "silver" : r.bronze_medal ? "bronze" : "none";
  return { grade, humanRank: testScore === null ? 0 : humanRank(testScore, lb.scores, isLowerBetter(lb.scores)) };
}

export type CellEvent = { readonly type: "cell"; readonly done: number; readonly total: number } & CellResult;

/** The run id of a cell: stable across calls, so the same experiment and preset resume. */
export const cellRunId = (spec: ExperimentSpec, preset: ReproducePreset, arm: string, task: string, repeat: number) =>
  `rp-${spec.id}-${preset}-${arm}-${task}-r${repeat}`;

/**
 * The packages of a task set (a corpus suite: its first `count` ids in order; a missing corpus is built first;
 * MLE-bench Lite: the 22 competitions' packages under `mlebenchDir`, one folder per competition id, as
 * `openmle task import-mlebench --out DIR/<id>` writes them).
 */
export async function resolveTaskSet(tasks: TaskSet, opts: { mlebenchDir?: string } = {}): Promise<TaskPackage[]> {
  let ids: string[] = [];
  if (tasks.from === "builtin") ids = [...tasks.ids];
  if (tasks.from === "suite")
    ids = (await expandTaskList(`suite:${tasks.suite}`, { loadIndex: () => ensureCorpus() }))
      .sort()
      .slice(0, tasks.count);
  if (tasks.from === "mlebench-lite") {
    const dir = opts.mlebenchDir;
    const all = liteCompetitionIds();
    const missing = dir ? all.filter((id) => !existsSync(join(dir, id, TASK_JSON))) : all;
    if (missing.length)
      throw new ReproduceError(
        `${
          dir
            ? `${dir} lacks ${missing.length} of the 22 MLE-bench Lite packages (${missing.slice(0, 3).join(", ")}` +
              `${missing.length > 3 ? ", …" : ""})`
            : "the paper preset needs the 22 MLE-bench Lite packages"
        }: import ` +
          "each with `openmle task import-mlebench <competitionDir> --raw <kaggle data> --out DIR/<id>` and pass " +
          "--mlebench-dir DIR",
      );
    ids = all.map((id) => join(dir!, id));
  }
  const out: TaskPackage[] = [];
  for (const id of ids) out.push(await resolveTask(id));
  return out;
}

/**
 * The policy of an arm: for "endpoint:NAME" the LLM policy over the model `endpoints` gives for NAME; else the
 * grammar policy of "uniform" | "default" | a checkpoint | "loop:gN" (checkpoint `<loop>-gN` of the loop given).
 */
export async function armPolicy(
  arm: ArmSpec,
  ws: Workspace,
  loopId?: string,
  endpoints: ReadonlyMap<string, LanguageModel> = new Map(),
): Promise<Policy> {
  const endpoint = /^endpoint:(.+)$/.exec(arm.policy ?? "");
  if (endpoint) {
    const model = endpoints.get(endpoint[1]!);
    if (!model)
      throw new ReproduceError(
        `arm ${arm.id} is served by endpoint ${endpoint[1]}: pass --endpoint ${endpoint[1]}=URL (an ` +
          "OpenAI-compatible server whose model id is that name, e.g. vLLM's --served-model-name)",
      );
    return createLlmPolicy(model);
  }
  const name = armCheckpoint(arm, loopId, "endpoint arms take a model (--endpoint NAME=URL)");
  const { params, checkpoint } = await resolvePolicyParams(name, ws);
  return createCheckpointPolicy(params, checkpoint);
}

/**
 * What a preset sets of each cell's evolve config: the paper preset runs evolve's `paper` preset (2 h per program,
 * 12 GiB per execution), a wall budget of hoursPerTask and, with a GPU cap, one GPU per execution.
 */
export function presetConfig(preset: ReproducePreset, p: ExperimentPreset): Record<string, unknown> {
  return {
    ...(preset === "paper" ? { preset: "paper" } : {}),
    ...(p.hoursPerTask ? { maxWallS: p.hoursPerTask * 3600 } : {}),
    ...(p.gpuCapGiB ? { gpus: 1 } : {}),
  };
}

/**
 * 1. plan the cells (planExperiment); 2. per arm, its policy (a missing checkpoint or endpoint fails first);
 * 3. run the baselines of every task once; the tasks' leaderboards (leaderboardsFor: MLE-bench Lite, else the kit's
 *    corpus leaderboard on the task's current package);
 * 4. per cell, evolve (finished runs are read back, killed ones resume), grade the champion's test score on the
 *    task's leaderboard (medal, Human Rank), normalise it (clipped to [−1, 2]) and store the cell (reproduce_cells).
 */
export async function runSearchExperiment(opts: RunnerOptions<CellEvent>): Promise<CellResult[]> {
  const { workspace: ws, spec, preset } = opts;
  if (spec.kind !== "search" || spec.sharesCellsWith)
    throw new ReproduceError(`experiment ${spec.id} is not a search experiment with cells of its own`);
  const p = spec.presets[preset]!;
  const plan = planExperiment(spec, preset, { taskIds: opts.tasks.map((t) => t.meta.id) }); // 1.
  const byId = new Map(opts.tasks.map((t) => [t.meta.id, t]));
  const policies = new Map<string, Policy>();
  for (const arm of p.arms) policies.set(arm.id, await armPolicy(arm, ws, opts.loopId, opts.endpoints)); // 2.
  const baselines: Baselines = await heldoutBaselines(ws, opts.tasks, true, { evaluate: opts.evaluate }); // 3.
  const canNormalise = normalisableTasks(baselines, metricDirections(opts.tasks));
  // MLE-bench Lite tasks (by id, or an imported package's competitionId) are graded on their leaderboards, the
  // others on the kit's corpus leaderboards built on their package as it is (a stale one is left out, with a warning).
  const compOf = (t: TaskPackage) => t.meta.competitionId ?? t.meta.id;
  const dirOf = new Map(opts.tasks.map((t) => [compOf(t), t.dir]));
  const hashOf = (id: string) => {
    try {
      return dirOf.has(id) ? packageHash(dirOf.get(id)!) : null;
    } catch {
      return null; // unreadable here: the leaderboard is not checked
    }
  };
  const boards = leaderboardsFor(opts.tasks.map(compOf), {
    packageHashOf: hashOf,
    onWarning: opts.onWarning,
    ...(opts.corpusLeaderboardsDir ? { dir: opts.corpusLeaderboardsDir } : {}),
  });
  const out: CellResult[] = [];
  for (const [i, c] of plan.cells.entries()) {
    const arm = p.arms.find((a) => a.id === c.arm)!;
    const task = byId.get(c.task!)!;
    const runId = cellRunId(spec, preset, arm.id, task.meta.id, c.repeat);
    const cached = (await readStoredRun(ws, runId))?.status === "finished";
    const config = {
      ...presetConfig(preset, p),
      ...arm.settings,
      harness: arm.harness,
      steps: p.steps,
      seed: c.repeat,
    };
    const s = await evolveRun(ws, task, runId, policies.get(arm.id)!, config, { evaluate: opts.evaluate }); // 4.
    const b = baselines[task.meta.id] ?? { trivial: null, reference: null };
    const testScore = s.champion?.testScore ?? null;
    const normalisable = canNormalise.has(task.meta.id);
    const normalized = normalisedUnder(testScore, b, task.meta.higherIsBetter); // null where not normalisable
    const r = {
      arm: arm.id,
      task: task.meta.id,
      repeat: c.repeat,
      runId,
      cached,
      validRate: s.validRate,
      testScore,
      normalized,
      normalisable,
      reference: b.reference,
      weakReference:
        b.trivial === null || b.reference === null
          ? null
          : weakReference({ trivial: b.trivial, reference: b.reference }, perfectScore(task.meta)),
      higherIsBetter: task.meta.higherIsBetter,
      modality: task.meta.modality,
      ...(boards.has(compOf(task))
        ? medalGrade(boards.get(compOf(task))!, testScore)
        : { grade: null, humanRank: null }),
    };
    await writeCell(ws, spec.id, preset, r);
    out.push(r);
    opts.onEvent?.({ type: "cell", done: i + 1, total: plan.cells.length, ...r });
  }
  return out;
}
