import type { Workspace } from "../../store/index.js";

/** The stages of one generation, in order (generation K, the last, has only `heldout`). */
export const LOOP_STAGES = ["heldout", "evolve", "collect", "sft", "rl", "checkpoint"] as const;
export type LoopStage = (typeof LOOP_STAGES)[number] | "baselines";

/** The stored result of a finished stage, or null when it has not finished (absent or killed while running). */
export async function stageResult<T>(ws: Workspace, loopId: string, generation: number, stage: LoopStage): Promise<T | null> {
  const r = (await ws.query<{ status: string; result: string | null }>(
    "SELECT status, result FROM loop_stages WHERE loop_id = $l AND generation = $g AND stage = $s", { l: loopId, g: generation, s: stage }))[0];
  return r && r.status === "done" ? (JSON.parse(r.result ?? "null") as T) : null;
}

export async function markStage(ws: Workspace, loopId: string, generation: number, stage: LoopStage, status: "running" | "done", result: unknown = null): Promise<void> {
  const prev = status === "done"
    ? (await ws.query<{ started_at: Date }>("SELECT started_at FROM loop_stages WHERE loop_id = $l AND generation = $g AND stage = $s", { l: loopId, g: generation, s: stage }))[0]?.started_at
    : undefined;
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM loop_stages WHERE loop_id = $l AND generation = $g AND stage = $s", { l: loopId, g: generation, s: stage });
    await ws.append("loop_stages", [{
      loop_id: loopId, generation, stage, status, result: JSON.stringify(result),
      started_at: prev ?? new Date(), ended_at: status === "done" ? new Date() : null,
    }]);
  });
}

/** Every stage record of a loop, in order. */
export async function loopStages(ws: Workspace, loopId: string): Promise<{ generation: number; stage: string; status: string }[]> {
  return ws.query("SELECT generation, stage, status FROM loop_stages WHERE loop_id = $l ORDER BY generation, started_at", { l: loopId });
}
