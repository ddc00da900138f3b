// Table `reproduce_cells`: the finished cells of search experiments, so a table lays out again from the workspace
// alone (a recorded laptop run in data/recorded-runs/, on a machine without the corpus).
import { clipNormalized } from "../eval/index.js";
import type { Workspace } from "../store/index.js";
import type { ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";

/** Writes (or replaces) one cell of `experiment` at `preset`. */
export async function writeCell(
  ws: Workspace,
  experiment: string,
  preset: ReproducePreset,
  c: CellResult,
): Promise<void> {
  await ws.exec(
    `INSERT OR REPLACE INTO reproduce_cells (experiment, preset, arm, task_id, repeat, run_id, modality,
       higher_is_better, valid_rate, test_score, reference, normalisable, normalized, grade, human_rank)
     VALUES ($e, $p, $a, $t, $r, $run, $m, $hib, $v, $ts, $ref, $ok, $n, $g, $hr)`,
    {
      e: experiment,
      p: preset,
      a: c.arm,
      t: c.task,
      r: c.repeat,
      run: c.runId,
      m: c.modality,
      hib: c.higherIsBetter,
      v: c.validRate,
      ts: c.testScore,
      ref: c.reference,
      ok: c.normalisable,
      n: c.normalized,
      g: c.grade,
      hr: c.humanRank,
    },
  );
}

interface CellRow {
  arm: string;
  task_id: string;
  repeat: number;
  run_id: string;
  modality: string;
  higher_is_better: boolean;
  valid_rate: number;
  test_score: number | null;
  reference: number | null;
  normalisable: boolean;
  normalized: number | null;
  grade: string | null;
  human_rank: number | null;
}

/** The stored cells of `experiment` at `preset`, by arm, task and repeat (`cached`: true, they were read back). */
export async function readCells(ws: Workspace, experiment: string, preset: ReproducePreset): Promise<CellResult[]> {
  const rows = await ws.query<CellRow>(
    `SELECT arm, task_id, repeat, run_id, modality, higher_is_better, valid_rate, test_score, reference, normalisable,
            normalized, grade, human_rank
     FROM reproduce_cells WHERE experiment = $e AND preset = $p ORDER BY arm, task_id, repeat`,
    { e: experiment, p: preset },
  );
  return rows.map((r) => ({
    arm: r.arm,
    task: r.task_id,
    repeat: Number(r.repeat),
    runId: r.run_id,
    cached: true,
    validRate: r.valid_rate,
    testScore: r.test_score,
    // Cells stored before issue 60 hold the unbounded ratio; the bounded score is its clip.
    normalized: r.normalized === null ? null : clipNormalized(r.normalized),
    normalisable: r.normalisable,
    reference: r.reference,
    higherIsBetter: r.higher_is_better,
    modality: r.modality,
    grade: r.grade as CellResult["grade"],
    humanRank: r.human_rank,
  }));
}
