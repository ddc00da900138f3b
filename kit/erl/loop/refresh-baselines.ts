import { normalizedScore, runBaselines } from "../../eval/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Workspace } from "../../store/index.js";
import { LoopError } from "../errors.js";
import type { Baselines } from "./heldout-eval.js";
import { markStage, stageResult } from "./loop-store.js";

/** Runs the two baselines of one task and returns their hidden test scores (default: kit/eval's runBaselines in the sandbox). */
export type BaselineRunner = (task: TaskPackage, ws: Workspace) => Promise<{ trivial: number | null; reference: number | null }>;

const sandboxBaselines: BaselineRunner = async (task, ws) => {
  const b = await runBaselines(task, { workspace: ws });
  return { trivial: b.trivial, reference: b.reference };
};

/**
 * Re-run the baselines of a loop's held-out tasks and recompute the normalised score of every stored
 * held-out row from its stored hidden test score: normalised = (test − trivial) / (reference − trivial)
 * (kit/eval normalizedScore; null without a usable pair). For loops whose baselines came from an older
 * kit, e.g. before text and date columns had a reference model. With `onlyMissing` (default) only tasks
 * whose stored pair has a null are re-run. The loop's `baselines` stage result becomes the new pairs, and
 * every stored row takes its task's pair (rows written by a process that still held older pairs included).
 */
export async function refreshBaselines(ws: Workspace, loopId: string, tasks: readonly TaskPackage[],
  opts: { readonly onlyMissing?: boolean; readonly run?: BaselineRunner } = {}): Promise<Baselines> {
  const held = (await ws.query<{ h: string }>("SELECT heldout_tasks AS h FROM loops WHERE loop_id = $l", { l: loopId }))[0];
  if (!held) throw new LoopError(`no loop "${loopId}" in this workspace: pass the id of a loop it holds`);
  const heldIds = JSON.parse(held.h) as string[];
  const stray = tasks.filter((t) => !heldIds.includes(t.meta.id)).map((t) => t.meta.id);
  if (stray.length) throw new LoopError(`${stray.join(", ")} not among loop "${loopId}"'s held-out tasks (${heldIds.join(", ")})`);
  const run = opts.run ?? sandboxBaselines;
  const baselines: Baselines = { ...((await stageResult<Baselines>(ws, loopId, -1, "baselines")) ?? {}) };
  for (const t of tasks) {
    const cur = baselines[t.meta.id];
    if ((opts.onlyMissing ?? true) && cur && cur.trivial !== null && cur.reference !== null) continue;
    baselines[t.meta.id] = await run(t, ws);
  }
  await markStage(ws, loopId, -1, "baselines", "done", baselines);
  const hib = new Map(tasks.map((t) => [t.meta.id, t.meta.higherIsBetter]));
  const rows = await ws.query<{ generation: number; task_id: string; seed: number; test_score: number | null }>(
    "SELECT generation, task_id, seed, test_score FROM loop_heldout WHERE loop_id = $l", { l: loopId });
  await ws.transaction(async () => {
    for (const r of rows) {
      const b = baselines[r.task_id] ?? { trivial: null, reference: null };
      const h = hib.get(r.task_id);
      const normalized = b.trivial !== null && b.reference !== null && h !== undefined
        ? normalizedScore(r.test_score, { trivial: b.trivial, reference: b.reference }, h) : null;
      await ws.exec(
        "UPDATE loop_heldout SET trivial = $t, reference = $r, normalized = $n WHERE loop_id = $l AND generation = $g AND task_id = $k AND seed = $s",
        { t: b.trivial, r: b.reference, n: normalized, l: loopId, g: Number(r.generation), k: r.task_id, s: Number(r.seed) });
    }
  });
  return baselines;
}
