import type { Workspace } from "../../store/index.js";

/** One fresh Draft of a checkpoint on a held-out task (table `loop_heldout_drafts`). */
export interface HeldoutDraftRow {
  readonly loopId: string;
  readonly generation: number;
  readonly checkpoint: string;
  readonly taskId: string;
  readonly draft: number;
  readonly status: string;
  readonly validScore: number | null;
  readonly testScore: number | null;
  readonly normalized: number | null;
  readonly sandboxS: number;
}

/** Replaces the draft rows of one (loop, generation, task) with `rows`, in one transaction. */
export async function replaceHeldoutDrafts(
  ws: Workspace,
  loopId: string,
  generation: number,
  taskId: string,
  rows: readonly HeldoutDraftRow[],
): Promise<void> {
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM loop_heldout_drafts WHERE loop_id = $l AND generation = $g AND task_id = $t", {
      l: loopId,
      g: generation,
      t: taskId,
    });
    await ws.append(
      "loop_heldout_drafts",
      rows.map((r) => ({
        loop_id: r.loopId,
        generation: r.generation,
        checkpoint: r.checkpoint,
        task_id: r.taskId,
        draft: r.draft,
        status: r.status,
        valid_score: r.validScore,
        test_score: r.testScore,
        normalized: r.normalized,
        sandbox_s: r.sandboxS,
      })),
    );
  });
}

const num = (x: unknown): number | null => (x === null || x === undefined ? null : Number(x));

/** The draft rows of a loop (all generations, or one), ordered by generation, task and draft. */
export async function loadHeldoutDrafts(
  ws: Workspace,
  loopId: string,
  generation?: number,
): Promise<HeldoutDraftRow[]> {
  const rows = await ws.query<Record<string, unknown>>(
    `SELECT * FROM loop_heldout_drafts WHERE loop_id = $l ${generation === undefined ? "" : "AND generation = $g"}
     ORDER BY generation, task_id, draft`,
    generation === undefined ? { l: loopId } : { l: loopId, g: generation },
  );
  return rows.map((r) => ({
    loopId: r.loop_id as string,
    generation: Number(r.generation),
    checkpoint: r.checkpoint as string,
    taskId: r.task_id as string,
    draft: Number(r.draft),
    status: r.status as string,
    validScore: num(r.valid_score),
    testScore: num(r.test_score),
    normalized: num(r.normalized),
    sandboxS: Number(r.sandbox_s),
  }));
}
