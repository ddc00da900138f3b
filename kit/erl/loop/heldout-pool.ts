import { storedTaskPackages } from "../../gym/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Workspace } from "../../store/index.js";
import { resolvePolicyParams } from "../checkpoints.js";
import { LoopError } from "../errors.js";
import { loadHeldoutDrafts, type HeldoutDraftRow } from "./heldout-drafts-store.js";
import { loopConfig } from "./loop-store.js";
import { stageSettings } from "./loop-config.js";
import { replayHeldoutDrafts, type PoolDraft } from "./off-policy.js";

/** One member of a pool: a row set (a loop id, or `reeval.ts`'s `<loop>-<tag>`) and the generation it holds. */
export interface PoolSide {
  readonly rows: string;
  readonly generation: number;
}

/** A pool of stored held-out drafts, replayed and ready for offPolicyFigures / offPolicyPaired. */
export interface HeldoutPool {
  /** The members' checkpoint names, in the order given; the pool's labels. */
  readonly labels: readonly string[];
  /** Each member's own rows (the direct estimate reads them), by label. */
  readonly rowsOf: ReadonlyMap<string, readonly HeldoutDraftRow[]>;
  /** The stored packages of the pool's tasks, sorted by id (metric direction and shape; no data needed). */
  readonly tasks: readonly TaskPackage[];
  /** Every member's drafts replayed, with their stored grades, in the members' order. */
  readonly drafts: readonly PoolDraft[];
}

/**
 * Loads the held-out drafts of `sides` (each drawn by one checkpoint, e.g. `learn-x-d32` generation 1), restricted to
 * `tasks` when given, checks that every member holds the same tasks and that no checkpoint comes twice, and replays
 * every draft under every member's params (replayHeldoutDrafts) at loop `loopId`'s held-out draw seed, attaching the
 * stored grades. Nothing is executed.
 */
export async function heldoutPool(
  ws: Workspace,
  opts: { readonly loopId: string; readonly sides: readonly PoolSide[]; readonly tasks?: readonly string[] },
): Promise<HeldoutPool> {
  const cfg = await loopConfig(ws, opts.loopId);
  if (!cfg) throw new LoopError(`no loop "${opts.loopId}" in ${ws.dir}: pass the id of the loop the rows belong to`);
  const st = stageSettings(cfg);
  const keep = opts.tasks ? new Set(opts.tasks) : null;
  const rowsOf = new Map<string, HeldoutDraftRow[]>();
  for (const s of opts.sides) {
    const rows = (await loadHeldoutDrafts(ws, s.rows, s.generation)).filter((r) => !keep || keep.has(r.taskId));
    if (!rows.length) throw new LoopError(`no held-out drafts ${s.rows}:${s.generation} in ${ws.dir} on those tasks`);
    const label = rows[0]!.checkpoint;
    if (rowsOf.has(label)) throw new LoopError(`checkpoint ${label} is in the pool twice: pass each checkpoint once`);
    rowsOf.set(label, rows);
  }
  const taskSet = (rs: readonly HeldoutDraftRow[]) => [...new Set(rs.map((r) => r.taskId))].sort();
  const taskIds = taskSet([...rowsOf.values()][0] ?? []);
  if (rowsOf.size < 2) throw new LoopError("a pool needs two or more members");
  if ([...rowsOf.values()].some((rs) => taskSet(rs).join(",") !== taskIds.join(",")))
    throw new LoopError("the pool's row sets hold different tasks: pool row sets measured on the same held-out tasks");
  const tasks = await storedTaskPackages(ws, taskIds);
  const labels = [...rowsOf.keys()];
  const named = await Promise.all(
    labels.map(async (label) => ({ label, params: (await resolvePolicyParams(label, ws)).params })),
  );
  const all = [...rowsOf.values()].flat();
  const replayed = await replayHeldoutDrafts({
    tasks,
    draws: all.map((r) => ({ taskId: r.taskId, draft: r.draft, drawnBy: r.checkpoint })),
    drawers: named,
    scorers: named,
    seed: st.heldout.draftSeed,
    perRunTimeoutS: st.evolve.perRunTimeoutS ?? 120,
  });
  const drafts = replayed.map((p, i) => ({ ...p, testScore: all[i]!.testScore, normalized: all[i]!.normalized }));
  return { labels, rowsOf, tasks, drafts };
}
