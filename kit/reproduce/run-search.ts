// Running a search experiment's cells: one evolve run per arm × task × repeat, named by the cell, so a finished
// cell is read back and a killed one resumes (erl/loop's evolveRun); each task's hidden test score normalised
// against kit/eval's trivial and reference baselines.
import { evolveRun, heldoutBaselines, normalisableTasks, resolvePolicyParams, type Baselines } from "../erl/index.js";
import { normalizedScore } from "../eval/index.js";
import { ensureCorpus, expandTaskList, resolveTask, type TaskPackage } from "../gym/index.js";
import { createCheckpointPolicy, type Policy } from "../policy/index.js";
import type { ExecutionRecord, SandboxJob } from "../sandbox/index.js";
import { readStoredRun } from "../evo/index.js";
import type { Workspace } from "../store/index.js";
import { ReproduceError } from "./errors.js";
import type { ArmSpec, ExperimentSpec, ReproducePreset, TaskSet } from "./experiment-spec.js";
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
  readonly higherIsBetter: boolean;
}

export type CellEvent = { readonly type: "cell"; readonly done: number; readonly total: number } & CellResult;

/** The run id of a cell: stable across calls, so the same experiment and preset resume. */
export const cellRunId = (spec: ExperimentSpec, preset: ReproducePreset, arm: string, task: string, repeat: number) =>
  `rp-${spec.id}-${preset}-${arm}-${task}-r${repeat}`;

/** The packages of a task set (a corpus suite: its first `count` ids in order; a missing corpus is built first). */
export async function resolveTaskSet(tasks: TaskSet): Promise<TaskPackage[]> {
  let ids: string[] = [];
  if (tasks.from === "builtin") ids = [...tasks.ids];
  if (tasks.from === "suite")
    ids = (await expandTaskList(`suite:${tasks.suite}`, { loadIndex: () => ensureCorpus() }))
      .sort()
      .slice(0, tasks.count);
  if (tasks.from === "mlebench-lite")
    throw new ReproduceError(
      "the paper preset's MLE-bench Lite tasks are imported packages (openmle task import-mlebench); running them " +
        "is not built yet: --dry-run prints the plan",
    );
  const out: TaskPackage[] = [];
  for (const id of ids) out.push(await resolveTask(id));
  return out;
}

/**
 * The grammar policy of an arm: "uniform" | "default" | a checkpoint | "loop:gN" (checkpoint `<loop>-gN` of the
 * loop given). Endpoint arms need an LLM endpoint per arm, which this runner does not take yet.
 */
export async function armPolicy(arm: ArmSpec, ws: Workspace, loopId?: string): Promise<Policy> {
  const name = armCheckpoint(arm, loopId, "running endpoint arms is not built yet");
  const { params, checkpoint } = await resolvePolicyParams(name, ws);
  return createCheckpointPolicy(params, checkpoint);
}

/**
 * 1. plan the cells (planExperiment); 2. run the baselines of every task once; 3. per arm, its policy;
 * 4. per cell, evolve (finished runs are read back, killed ones resume) and normalise the champion's test score.
 */
export async function runSearchExperiment(
  opts: RunnerOptions<CellEvent> & { readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord> },
): Promise<CellResult[]> {
  const { workspace: ws, spec, preset } = opts;
  if (spec.kind !== "search" || spec.sharesCellsWith)
    throw new ReproduceError(`experiment ${spec.id} is not a search experiment with cells of its own`);
  const p = spec.presets[preset]!;
  const plan = planExperiment(spec, preset, { taskIds: opts.tasks.map((t) => t.meta.id) }); // 1.
  const byId = new Map(opts.tasks.map((t) => [t.meta.id, t]));
  const baselines: Baselines = await heldoutBaselines(ws, opts.tasks, true, { evaluate: opts.evaluate }); // 2.
  const canNormalise = normalisableTasks(baselines, (id) => byId.get(id)?.meta.higherIsBetter ?? true);
  const policies = new Map<string, Policy>();
  for (const arm of p.arms) policies.set(arm.id, await armPolicy(arm, ws, opts.loopId)); // 3.
  const out: CellResult[] = [];
  for (const [i, c] of plan.cells.entries()) {
    const arm = p.arms.find((a) => a.id === c.arm)!;
    const task = byId.get(c.task!)!;
    const runId = cellRunId(spec, preset, arm.id, task.meta.id, c.repeat);
    const cached = (await readStoredRun(ws, runId))?.status === "finished";
    const config = { ...arm.settings, harness: arm.harness, steps: p.steps, seed: c.repeat };
    const s = await evolveRun(ws, task, runId, policies.get(arm.id)!, config, { evaluate: opts.evaluate }); // 4.
    const b = baselines[task.meta.id] ?? { trivial: null, reference: null };
    const testScore = s.champion?.testScore ?? null;
    const normalisable = canNormalise.has(task.meta.id);
    const normalized = normalisable
      ? normalizedScore(testScore, { trivial: b.trivial!, reference: b.reference! }, task.meta.higherIsBetter)
      : null;
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
      higherIsBetter: task.meta.higherIsBetter,
    };
    out.push(r);
    opts.onEvent?.({ type: "cell", done: i + 1, total: plan.cells.length, ...r });
  }
  return out;
}
