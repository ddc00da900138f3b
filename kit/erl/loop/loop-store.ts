import type { Workspace } from "../../store/index.js";
import type { CompositionRow } from "../sft/composition.js";
import type { Baselines } from "./heldout-eval.js";
import { LoopConfig } from "./loop-config.js";

/** The stages of one generation, in order (generation K, the last, has only `heldout`). */
export const LOOP_STAGES = ["heldout", "evolve", "collect", "sft", "rl", "checkpoint"] as const;
export type LoopStage = (typeof LOOP_STAGES)[number] | "baselines";

/** The stored result of a finished stage, or null when it has not finished (absent or killed while running). */
export async function stageResult<T>(
  ws: Workspace,
  loopId: string,
  generation: number,
  stage: LoopStage,
): Promise<T | null> {
  const r = (
    await ws.query<{ status: string; result: string | null }>(
      "SELECT status, result FROM loop_stages WHERE loop_id = $l AND generation = $g AND stage = $s",
      { l: loopId, g: generation, s: stage },
    )
  )[0];
  return r && r.status === "done" ? (JSON.parse(r.result ?? "null") as T) : null;
}

/** The config a loop was started with (table `loops`), parsed, or null without the loop. */
export async function loopConfig(ws: Workspace, loopId: string): Promise<LoopConfig | null> {
  const [row] = await ws.query<{ config: string }>("SELECT config FROM loops WHERE loop_id = $l", { l: loopId });
  return row ? LoopConfig.parse(JSON.parse(row.config)) : null;
}

/** The held-out tasks' baselines a loop measured once (stage `baselines`); empty before that stage finished. */
export async function loopBaselines(ws: Workspace, loopId: string): Promise<Baselines> {
  return (await stageResult<Baselines>(ws, loopId, -1, "baselines")) ?? {};
}

/**
 * Stores baselines under `id` as its `baselines` stage, where `loopBaselines(ws, id)` reads them: for a row set
 * measured on held-out tasks its loop never had (bench/erl/reeval.ts --heldout-count).
 */
export async function saveBaselines(ws: Workspace, id: string, baselines: Baselines): Promise<void> {
  await markStage(ws, id, -1, "baselines", "done", baselines);
}

/** Records a stage `running` (started now) or `done` with its result (start time kept, ended now). */
export async function markStage(
  ws: Workspace,
  loopId: string,
  generation: number,
  stage: LoopStage,
  status: "running" | "done",
  result: unknown = null,
  now: () => number = Date.now,
): Promise<void> {
  const prev =
    status === "done"
      ? (
          await ws.query<{ started_at: Date }>(
            "SELECT started_at FROM loop_stages WHERE loop_id = $l AND generation = $g AND stage = $s",
            { l: loopId, g: generation, s: stage },
          )
        )[0]?.started_at
      : undefined;
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM loop_stages WHERE loop_id = $l AND generation = $g AND stage = $s", {
      l: loopId,
      g: generation,
      s: stage,
    });
    await ws.append("loop_stages", [
      {
        loop_id: loopId,
        generation,
        stage,
        status,
        result: JSON.stringify(result),
        started_at: prev ?? new Date(now()),
        ended_at: status === "done" ? new Date(now()) : null,
      },
    ]);
  });
}

/** Every stage record of a loop, in order. */
export async function loopStages(
  ws: Workspace,
  loopId: string,
): Promise<{ generation: number; stage: string; status: string; seconds: number | null }[]> {
  const rows = await ws.query<{ generation: number; stage: string; status: string; seconds: number | null }>(
    `SELECT generation, stage, status, epoch(ended_at) - epoch(started_at) AS seconds
     FROM loop_stages WHERE loop_id = $l ORDER BY generation, started_at`,
    { l: loopId },
  );
  return rows.map((r) => ({
    ...r,
    generation: Number(r.generation),
    seconds: r.seconds === null ? null : Number(r.seconds),
  }));
}

/** The training and held-out task ids a loop was started with (table `loops`), or null without the loop. */
export async function loopTaskSets(
  ws: Workspace,
  loopId: string,
): Promise<{ train: string[]; heldout: string[] } | null> {
  const [row] = await ws.query<{ train_tasks: string; heldout_tasks: string }>(
    "SELECT train_tasks, heldout_tasks FROM loops WHERE loop_id = $l",
    { l: loopId },
  );
  return row
    ? { train: JSON.parse(row.train_tasks) as string[], heldout: JSON.parse(row.heldout_tasks) as string[] }
    : null;
}

/**
 * What each generation's collect stage kept, from its stored result: the dataset, its example count and its
 * composition by operator and path (null when the stage found its dataset already stored and did not recount).
 * Reads stage records only, so it works on a loop exported without its datasets (data/recorded-runs).
 */
export async function loopCompositions(
  ws: Workspace,
  loopId: string,
): Promise<{ generation: number; dataset: string; examples: number; composition: CompositionRow[] | null }[]> {
  const rows = await ws.query<{ generation: number; result: string | null }>(
    `SELECT generation, result FROM loop_stages
     WHERE loop_id = $l AND stage = 'collect' AND status = 'done' ORDER BY generation`,
    { l: loopId },
  );
  return rows.flatMap((r) => {
    const v = JSON.parse(r.result ?? "null") as {
      dataset: string;
      examples: number;
      composition: CompositionRow[] | null;
    } | null;
    return v
      ? [{ generation: Number(r.generation), dataset: v.dataset, examples: v.examples, composition: v.composition }]
      : [];
  });
}

/** The ids of the workspace's loops, the latest started first. */
export async function loopIds(ws: Workspace): Promise<string[]> {
  const rows = await ws.query<{ loop_id: string }>("SELECT loop_id FROM loops ORDER BY started_at DESC, loop_id");
  return rows.map((r) => r.loop_id);
}
