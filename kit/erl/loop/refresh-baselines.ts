import { runBaselines } from "../../eval/index.js";
import { metricDirections } from "../../gym/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Workspace } from "../../store/index.js";
import { LoopError } from "../errors.js";
import { normalisedUnder, type Baselines } from "./heldout-eval.js";
import { heldoutScores, renormaliseHeldout } from "./heldout-store.js";
import { loopTaskSets, saveBaselines, stageResult } from "./loop-store.js";

/** Runs the two baselines of one task and returns their hidden test scores (default: kit/eval's runBaselines in the
 * sandbox). */
export type BaselineRunner = (
  task: TaskPackage,
  ws: Workspace,
) => Promise<{ trivial: number | null; reference: number | null }>;

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
 * every stored row of the given tasks takes its task's pair (rows written by a process that still held older
 * pairs included); rows of the loop's other held-out tasks keep theirs.
 */
export async function refreshBaselines(
  ws: Workspace,
  loopId: string,
  tasks: readonly TaskPackage[],
  opts: { readonly onlyMissing?: boolean; readonly run?: BaselineRunner } = {},
): Promise<Baselines> {
  const sets = await loopTaskSets(ws, loopId);
  if (!sets) throw new LoopError(`no loop "${loopId}" in this workspace: pass the id of a loop it holds`);
  const heldIds = sets.heldout;
  const stray = tasks.filter((t) => !heldIds.includes(t.meta.id)).map((t) => t.meta.id);
  if (stray.length)
    throw new LoopError(`${stray.join(", ")} not among loop "${loopId}"'s held-out tasks (${heldIds.join(", ")})`);
  const run = opts.run ?? sandboxBaselines;
  const baselines: Baselines = { ...((await stageResult<Baselines>(ws, loopId, -1, "baselines")) ?? {}) };
  for (const t of tasks) {
    const cur = baselines[t.meta.id];
    if ((opts.onlyMissing ?? true) && cur && cur.trivial !== null && cur.reference !== null) continue;
    baselines[t.meta.id] = await run(t, ws);
  }
  await saveBaselines(ws, loopId, baselines);
  const higher = metricDirections(tasks);
  const given = new Set(tasks.map((t) => t.meta.id));
  const rows = (await heldoutScores(ws, loopId))
    .filter((r) => given.has(r.taskId))
    .map(({ testScore, ...key }) => {
      const b = baselines[key.taskId] ?? { trivial: null, reference: null };
      return {
        ...key,
        trivial: b.trivial,
        reference: b.reference,
        normalized: normalisedUnder(testScore, b, higher(key.taskId)),
      };
    });
  await renormaliseHeldout(ws, loopId, rows);
  return baselines;
}
