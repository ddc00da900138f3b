import type { Workspace } from "../../store/index.js";

/** One held-out evolve run of a checkpoint (table `loop_heldout`). */
export interface HeldoutRow {
  readonly loopId: string;
  readonly generation: number;
  readonly checkpoint: string;
  readonly taskId: string;
  readonly seed: number;
  readonly runId: string;
  readonly validScore: number | null;
  readonly testScore: number | null;
  readonly validRate: number;
  readonly meanDraftScore: number | null;
  readonly trivial: number | null;
  readonly reference: number | null;
  readonly normalized: number | null;
}

/** Replaces a generation's held-out rows with `rows`, in one transaction. */
export async function replaceHeldout(
  ws: Workspace,
  loopId: string,
  generation: number,
  rows: readonly HeldoutRow[],
): Promise<void> {
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM loop_heldout WHERE loop_id = $l AND generation = $g", { l: loopId, g: generation });
    await ws.append(
      "loop_heldout",
      rows.map((r) => ({
        loop_id: r.loopId,
        generation: r.generation,
        checkpoint: r.checkpoint,
        task_id: r.taskId,
        seed: r.seed,
        run_id: r.runId,
        valid_score: r.validScore,
        test_score: r.testScore,
        valid_rate: r.validRate,
        mean_draft_score: r.meanDraftScore,
        trivial: r.trivial,
        reference: r.reference,
        normalized: r.normalized,
      })),
    );
  });
}

/** The held-out rows of a loop (all generations), ordered by generation, task and seed. */
export async function loadHeldout(ws: Workspace, loopId: string): Promise<HeldoutRow[]> {
  const rows = await ws.query<Record<string, unknown>>(
    "SELECT * FROM loop_heldout WHERE loop_id = $l ORDER BY generation, task_id, seed",
    { l: loopId },
  );
  return rows.map((r) => ({
    loopId: r.loop_id as string,
    generation: Number(r.generation),
    checkpoint: r.checkpoint as string,
    taskId: r.task_id as string,
    seed: Number(r.seed),
    runId: r.run_id as string,
    validScore: r.valid_score as number | null,
    testScore: r.test_score as number | null,
    validRate: Number(r.valid_rate),
    meanDraftScore: r.mean_draft_score as number | null,
    trivial: r.trivial as number | null,
    reference: r.reference as number | null,
    normalized: r.normalized as number | null,
  }));
}

/** The key and hidden test score of one stored held-out row (what a renormalisation needs). */
export interface HeldoutScore {
  readonly generation: number;
  readonly taskId: string;
  readonly seed: number;
  readonly testScore: number | null;
}

/** Every held-out row's key and test score, in storage order. */
export async function heldoutScores(ws: Workspace, loopId: string): Promise<HeldoutScore[]> {
  const rows = await ws.query<{ generation: number; task_id: string; seed: number; test_score: number | null }>(
    "SELECT generation, task_id, seed, test_score FROM loop_heldout WHERE loop_id = $l",
    { l: loopId },
  );
  return rows.map((r) => ({
    generation: Number(r.generation),
    taskId: r.task_id,
    seed: Number(r.seed),
    testScore: r.test_score,
  }));
}

/** New baselines and normalised score of one held-out row. */
export interface HeldoutRenormalised extends Omit<HeldoutScore, "testScore"> {
  readonly trivial: number | null;
  readonly reference: number | null;
  readonly normalized: number | null;
}

/** Writes the new baselines and normalised scores of held-out rows, in one transaction. */
export async function renormaliseHeldout(
  ws: Workspace,
  loopId: string,
  rows: readonly HeldoutRenormalised[],
): Promise<void> {
  await ws.transaction(async () => {
    for (const r of rows) {
      await ws.exec(
        "UPDATE loop_heldout SET trivial = $t, reference = $r, normalized = $n WHERE loop_id = $l " +
          "AND generation = $g AND task_id = $k AND seed = $s",
        { t: r.trivial, r: r.reference, n: r.normalized, l: loopId, g: r.generation, k: r.taskId, s: r.seed },
      );
    }
  });
}
