// Running an sft experiment's cells: per arm × repeat, one OpenMLE-Evo run per task by the arm's policy (the
// evolutionary path's trees) and one collectSft over those runs and the same tasks' parallel drafts (the arm's policy
// as the teacher), stored as a dataset named by the cell; a stored dataset is read back, never collected again.
import { collectSft, composition, evolveRun, listDatasets, loadDataset, type CompositionRow } from "../erl/index.js";
import { OPERATORS } from "../policy/index.js";
import { ReproduceError } from "./errors.js";
import type { ExperimentSpec, ReproducePreset } from "./experiment-spec.js";
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

export type SftCellEvent = { readonly type: "sft-cell"; readonly done: number; readonly total: number } & SftCellResult;

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
    const cached = (await listDatasets(ws)).some((d) => d.dataset === dataset); // 1.
    let rows: readonly CompositionRow[];
    let examples: number;
    if (cached) {
      const stored = await loadDataset(ws, dataset);
      [rows, examples] = [composition(stored), stored.length];
    } else {
      const policy = await armPolicy(arm, ws, opts.loopId);
      const runs: string[] = [];
      for (const task of opts.tasks) {
        const runId = cellRunId(spec, preset, arm.id, task.meta.id, repeat);
        await evolveRun(
          ws,
          task,
          runId,
          policy,
          { harness: "openmle", steps: p.steps, seed: repeat },
          {
            evaluate: opts.evaluate,
          },
        ); // 2.
        runs.push(runId);
      }
      const res = await collectSft({
        workspace: ws,
        dataset,
        tasks: opts.tasks,
        teachers: { primary: policy },
        runs,
        config: { ...arm.settings, seed: repeat },
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

const meanOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

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
    return OPERATORS.map((op): TableRow => {
      const of = mine.map((c) => c.composition.find((r) => r.operator === op)!);
      const f = (xs: number[], d: number) => meanOf(xs).toFixed(d);
      const split = `${f(
        of.map((r) => r.parallel),
        1,
      )} parallel + ${f(
        of.map((r) => r.evolution),
        1,
      )} evolution`;
      return {
        source: `kit (${preset})`,
        row: `${arm.label}: ${op} (${split})`,
        values: {
          examples: f(
            of.map((r) => r.total),
            1,
          ),
          share: `${f(
            of.map((r) => r.sharePct),
            1,
          )}%`,
        },
      };
    });
  });
  return [...kit, ...referenceRows(spec)];
}
