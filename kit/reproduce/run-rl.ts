// Running an rl experiment's cells: one trainRL run per arm × repeat, named by the cell, so a finished run is read
// back and a killed one resumes; then its table (the best candidate's advantage under both rules, the late
// group-best reward, step time and how evenly the tasks were stepped), avg@k over repeats.
import { readRlRun, trainRL, type StoredRlRun } from "../erl/index.js";
import { meanStd } from "../eval/index.js";
import { ReproduceError } from "./errors.js";
import { kitSource, type ArmSpec, type ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";
import { referenceRows, type TableRow } from "./search-table.js";
import { armCheckpoint, armRepeatCells, type RunnerOptions } from "./runner-common.js";
import { rlFigure } from "./figures.js";
import { experimentScales, fixedGroupBest } from "./rl-fixed-scale.js";
import type { Figure } from "../report/index.js";
import type { Workspace } from "../store/index.js";

export interface RlCellResult {
  readonly arm: string;
  readonly repeat: number;
  readonly runId: string;
  /** The run was finished before this call. */
  readonly cached: boolean;
  readonly run: StoredRlRun;
}

export type RlCellEvent = { readonly type: "rl-cell"; readonly done: number; readonly total: number } & RlCellResult;

/** trainRL's start params of an arm: the grammar parameter sets and checkpoints, "loop:gN" of the given loop. */
export const armStart = (arm: ArmSpec, loopId?: string): string =>
  armCheckpoint(arm, loopId, "RL of endpoint arms runs on the external trainer");

/** The trainRL run of an rl cell: `rp-<id>-<preset>-<arm>-r<k>`. */
export const rlCellRunId = (spec: ExperimentSpec, preset: ReproducePreset, arm: string, repeat: number) =>
  `rp-${spec.id}-${preset}-${arm}-r${repeat}`;

/** 1. per arm × repeat, the cell's run: read back when finished, resumed when stored, else started; 2. read it. */
export async function runRlExperiment(opts: RunnerOptions<RlCellEvent>): Promise<RlCellResult[]> {
  const { workspace: ws, spec, preset } = opts;
  const p = spec.presets[preset];
  if (spec.kind !== "rl" || !p)
    throw new ReproduceError(`experiment ${spec.id} has no rl cells at the ${preset} preset`);
  const cells = armRepeatCells(p);
  const out: RlCellResult[] = [];
  for (const [i, { arm, repeat }] of cells.entries()) {
    const runId = rlCellRunId(spec, preset, arm.id, repeat);
    const stored = await readRlRun(ws, runId);
    const cached = stored?.status === "finished";
    if (!cached)
      await trainRL({
        workspace: ws,
        tasks: opts.tasks,
        from: armStart(arm, opts.loopId),
        to: runId,
        config: { ...arm.settings, steps: p.steps, group: p.group, groupsPerStep: p.groupsPerStep, seed: repeat },
        ...(stored ? { resume: runId } : { runId }),
        ...(opts.executor ? { executor: opts.executor } : opts.evaluate ? { execute: opts.evaluate } : {}),
      });
    const run = (await readRlRun(ws, runId))!;
    const r = { arm: arm.id, repeat, runId, cached, run };
    out.push(r);
    opts.onEvent?.({ type: "rl-cell", done: i + 1, total: cells.length, ...r });
  }
  return out;
}

/**
 * An rl experiment's table and figure from a workspace alone (e.g. a recorded laptop run): its finished cells'
 * runs, read back (unfinished or missing cells are left out; the table's runs column says how many there are).
 */
export async function storedRlTable(
  ws: Workspace,
  spec: ExperimentSpec,
  preset: ReproducePreset,
): Promise<{ rows: TableRow[]; cells: RlCellResult[]; figure: Figure | null }> {
  const p = spec.presets[preset];
  if (spec.kind !== "rl" || !p)
    throw new ReproduceError(`experiment ${spec.id} has no rl cells at the ${preset} preset`);
  const cells: RlCellResult[] = [];
  for (const { arm, repeat } of armRepeatCells(p)) {
    const runId = rlCellRunId(spec, preset, arm.id, repeat);
    const run = await readRlRun(ws, runId);
    if (run?.status === "finished") cells.push({ arm: arm.id, repeat, runId, cached: true, run });
  }
  if (!cells.length)
    throw new ReproduceError(
      `${ws.dir} holds no finished cell of ${spec.id} at the ${preset} preset: run ` +
        `openmle reproduce ${spec.id} --preset ${preset} --workspace DIR`,
    );
  return { rows: rlTable(spec, preset, cells), cells, figure: rlFigure(spec, preset, cells) };
}

const avg = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/**
 * Per run: best-advantage-entropic / -group-normalised = mean over its consumed groups of the best candidate's
 * advantage; group-best-reward = mean over the later half of its steps of the step's best reward (on the run's own
 * bounds: ≈ 1 under adaptive bounds, whose best bound is the best score so far); group-best-fixed = the same half's
 * mean r_fixed, each group's best graded score on the experiment's fixed scale (rl-fixed-scale.ts: one set of
 * static bounds per task for every arm; "–" when no cell stored them); mean-step-minutes = mean step
 * wall time; per-task-steps-cv = population std / mean of consumed groups per task. Per arm: mean ± population std
 * over repeats; speed-up = the first arm's mean step time over this arm's.
 */
export function rlTable(spec: ExperimentSpec, preset: ReproducePreset, cells: readonly RlCellResult[]): TableRow[] {
  const p = spec.presets[preset]!;
  const scales = experimentScales(cells.map((c) => c.run));
  const perRun = (r: StoredRlRun) => {
    const late = r.steps.slice(Math.floor(r.steps.length / 2));
    const lateFrom = late[0]?.step ?? Number.POSITIVE_INFINITY;
    const fixed = fixedGroupBest(r, scales).filter((f) => f.step >= lateFrom);
    const counts = Object.values(r.groupsPerTask);
    const c = meanStd(counts);
    return {
      "best-advantage-entropic": avg(r.bestCandidates.map((b) => b.entropic)),
      "best-advantage-group-normalised": avg(r.bestCandidates.map((b) => b.groupNormalised)),
      "group-best-reward": avg(late.map((s) => s.bestReward)),
      "group-best-fixed": avg(fixed.map((f) => f.value)),
      "mean-step-minutes": avg(r.steps.map((s) => s.wallS / 60)),
      "per-task-steps-cv": c.n && c.mean > 0 ? c.std / c.mean : Number.NaN,
    };
  };
  type Figures = ReturnType<typeof perRun>;
  const fmt = (xs: number[], d: number, pct = false) => {
    const m = meanStd(xs.filter(Number.isFinite));
    const k = pct ? 100 : 1;
    return m.n ? `${(k * m.mean).toFixed(d)} ± ${(k * m.std).toFixed(d)}${pct ? "%" : ""}` : "–";
  };
  const runsOf = (arm: string) => cells.filter((c) => c.arm === arm).map((c) => perRun(c.run));
  const first = avg(runsOf(p.arms[0]!.id).map((f) => f["mean-step-minutes"]));
  const kit = p.arms.map((arm): TableRow => {
    const runs = runsOf(arm.id);
    const col = (k: keyof Figures) => runs.map((f) => f[k]);
    const step = avg(col("mean-step-minutes"));
    const all: Record<string, string> = {
      runs: String(runs.length),
      "best-advantage-entropic": fmt(col("best-advantage-entropic"), 2),
      "best-advantage-group-normalised": fmt(col("best-advantage-group-normalised"), 2),
      "group-best-reward": fmt(col("group-best-reward"), 3),
      "group-best-fixed": fmt(col("group-best-fixed"), 3),
      "mean-step-minutes": fmt(col("mean-step-minutes"), 2),
      "speed-up": Number.isFinite(first / step) && step > 0 ? `${(first / step).toFixed(2)}×` : "–",
      "per-task-steps-cv": fmt(col("per-task-steps-cv"), 1, true),
    };
    const values = Object.fromEntries(["runs", ...spec.metrics].map((m) => [m, all[m] ?? "–"]));
    return { source: kitSource(spec, preset), row: arm.label, values };
  });
  return [...kit, ...referenceRows(spec)];
}
