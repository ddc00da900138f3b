// Running an sft experiment's cells: per arm × repeat, one OpenMLE-Evo run per task by the arm's policy (the
// evolutionary path's trees) and one collectSft over those runs and the same tasks' parallel drafts (the arm's policy
// as the teacher), stored as a dataset named by the cell; a stored dataset is read back, never collected again.
import { collectSft, composition, datasetPaths, evolveRun, type CompositionRow } from "../erl/index.js";
import type { Figure } from "../report/index.js";
import type { Workspace } from "../store/index.js";
import { meanStd } from "../eval/index.js";
import { OPERATORS } from "../policy/index.js";
import { ReproduceError } from "./errors.js";
import { sftFigure } from "./figures.js";
import { kitSource, type ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";
import { armPolicy, cellRunId } from "./run-search.js";
import { referenceRows, type TableRow } from "./search-table.js";
import { armRepeatCells, type RunnerOptions } from "./runner-common.js";

export interface SftCellResult {
  readonly arm: string;
  readonly repeat: number;
  readonly dataset: string;
  /** The dataset was stored before this call. */
  readonly cached: boolean;
  readonly examples: number;
  readonly composition: readonly CompositionRow[];
}

/** A cell finished (`sft-cell`); within a cell, each teacher run (`sft-run`) and each task's parallel drafts. */
export type SftCellEvent =
  | ({ readonly type: "sft-cell"; readonly done: number; readonly total: number } & SftCellResult)
  | {
      readonly type: "sft-run";
      readonly arm: string;
      readonly repeat: number;
      readonly task: string;
      readonly done: number;
      readonly total: number;
    }
  | {
      readonly type: "sft-drafts";
      readonly arm: string;
      readonly repeat: number;
      readonly task: string;
      readonly kept: number;
      readonly attempts: number;
    };

/** The dataset of a cell: stable across calls, so the same experiment and preset resume. */
export const cellDataset = (spec: ExperimentSpec, preset: ReproducePreset, arm: string, repeat: number) =>
  `rp-${spec.id}-${preset}-${arm}-r${repeat}`;

/**
 * 1. per arm × repeat, a stored dataset is read back; otherwise 2. the arm's policy evolves each task (`steps`,
 * seed = repeat; finished runs are read back, killed ones resume) and 3. collectSft merges both paths of those runs
 * and tasks (the arm's settings are collectSft's config; its seed = repeat) into the cell's dataset.
 */
export async function runSftExperiment(opts: RunnerOptions<SftCellEvent>): Promise<SftCellResult[]> {
  const { workspace: ws, spec, preset } = opts;
  const p = spec.presets[preset];
  if (spec.kind !== "sft" || !p)
    throw new ReproduceError(`experiment ${spec.id} has no sft cells at the ${preset} preset`);
  const cells = armRepeatCells(p);
  const out: SftCellResult[] = [];
  for (const [i, { arm, repeat }] of cells.entries()) {
    const dataset = cellDataset(spec, preset, arm.id, repeat);
    const stored = await storedCell(ws, arm.id, repeat, dataset); // 1.
    const cached = stored !== null;
    let rows: readonly CompositionRow[];
    let examples: number;
    if (stored) [rows, examples] = [stored.composition, stored.examples];
    else {
      const policy = await armPolicy(arm, ws, opts.loopId);
      const runs: string[] = [];
      for (const [t, task] of opts.tasks.entries()) {
        const runId = cellRunId(spec, preset, arm.id, task.meta.id, repeat);
        await evolveRun(
          ws,
          task,
          runId,
          policy,
          { ...arm.teacherEvolve, harness: "openmle", steps: p.steps, seed: repeat },
          {
            evaluate: opts.evaluate,
          },
        ); // 2.
        runs.push(runId);
        const where = { arm: arm.id, repeat, task: task.meta.id };
        opts.onEvent?.({ type: "sft-run", ...where, done: t + 1, total: opts.tasks.length });
      }
      const res = await collectSft({
        workspace: ws,
        dataset,
        tasks: opts.tasks,
        teachers: { primary: policy },
        runs,
        config: { ...arm.settings, seed: repeat },
        onEvent: (e) =>
          e.type === "task-done" &&
          opts.onEvent?.({
            type: "sft-drafts",
            arm: arm.id,
            repeat,
            task: e.stats.taskId,
            kept: e.stats.kept,
            attempts: e.stats.attempts,
          }),
        ...(opts.evaluate ? { evaluate: opts.evaluate } : {}),
      }); // 3.
      [rows, examples] = [res.composition, res.examples.length];
    }
    const r = { arm: arm.id, repeat, dataset, cached, examples, composition: rows };
    out.push(r);
    opts.onEvent?.({ type: "sft-cell", done: i + 1, total: cells.length, ...r });
  }
  return out;
}

/** A cell whose dataset the workspace holds (read as operator and path only), else null. */
async function storedCell(ws: Workspace, arm: string, repeat: number, dataset: string): Promise<SftCellResult | null> {
  const paths = await datasetPaths(ws, dataset);
  if (!paths.length) return null;
  return { arm, repeat, dataset, cached: true, examples: paths.length, composition: composition(paths) };
}

/**
 * An sft experiment laid out from a workspace alone, running nothing: the cells whose dataset it holds (a recorded
 * copy of their operators and paths is enough: bench/reproduce/record.ts --sft).
 */
export async function storedSftTable(
  ws: Workspace,
  spec: ExperimentSpec,
  preset: ReproducePreset,
): Promise<{ rows: TableRow[]; cells: SftCellResult[]; figure: Figure | null }> {
  const p = spec.presets[preset];
  if (spec.kind !== "sft" || !p)
    throw new ReproduceError(`experiment ${spec.id} has no sft cells at the ${preset} preset`);
  const cells: SftCellResult[] = [];
  for (const { arm, repeat } of armRepeatCells(p)) {
    const cell = await storedCell(ws, arm.id, repeat, cellDataset(spec, preset, arm.id, repeat));
    if (cell) cells.push(cell);
  }
  if (!cells.length)
    throw new ReproduceError(
      `${ws.dir} holds no dataset of ${spec.id} at the ${preset} preset: run ` +
        `openmle reproduce ${spec.id} --preset ${preset} --workspace DIR`,
    );
  return { rows: sftTable(spec, preset, cells), cells, figure: sftFigure(spec, preset, cells) };
}

/** Per operator, over one arm's repeats: mean examples (parallel, evolution, total) and the share's mean and std. */
export function operatorStats(cells: readonly SftCellResult[]) {
  return OPERATORS.map((operator) => {
    const of = cells.map((c) => c.composition.find((r) => r.operator === operator)!);
    const mean = (key: "parallel" | "evolution" | "total") => meanStd(of.map((r) => r[key])).mean;
    return {
      operator,
      parallel: mean("parallel"),
      evolution: mean("evolution"),
      total: mean("total"),
      share: meanStd(of.map((r) => r.sharePct)),
    };
  });
}

/**
 * One row per arm and operator: examples = mean over repeats of the operator's examples (parallel + evolution, the
 * split in the row's name), share = mean over repeats of its % of the repeat's examples (0 when a repeat kept none);
 * the paper's rows (74.0 / 16.5 / 6.6 / 2.8 % of 26,259) below, labelled.
 */
export function sftTable(spec: ExperimentSpec, preset: ReproducePreset, cells: readonly SftCellResult[]): TableRow[] {
  const p = spec.presets[preset]!;
  const kit = p.arms.flatMap((arm) => {
    const mine = cells.filter((c) => c.arm === arm.id);
    if (!mine.length) return [];
    return operatorStats(mine).map((o): TableRow => ({
      source: kitSource(spec, preset),
      row: `${arm.label}: ${o.operator} (${o.parallel.toFixed(1)} parallel + ${o.evolution.toFixed(1)} evolution)`,
      values: { examples: o.total.toFixed(1), share: `${o.share.mean.toFixed(1)}%` },
    }));
  });
  return [...kit, ...referenceRows(spec)];
}
