import { taskNodesWithCode } from "../../evo/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Workspace } from "../../store/index.js";
import { adaptiveBounds, signedScore } from "./adaptive-bounds.js";
import type { ParentStore } from "./parent-store.js";

/**
 * Seed a task's parent store and reward history from the workspace's evolve runs of it: every node
 * with a program, rewarded by adaptive bounds over their graded scores (failed programs score NaN → 0),
 * and keeping its graded test score (successful nodes only) for its children's parent bonus.
 */
export async function seedFromEvolve(
  ws: Workspace,
  task: TaskPackage,
  store: ParentStore,
  history: Map<string, number[]>,
): Promise<void> {
  const rows = await taskNodesWithCode(ws, task.meta.id);
  if (!rows.length) return;
  const signed = rows.map((r) =>
    r.status === "success" ? signedScore(r.test_score, task.meta.higherIsBetter) : Number.NaN,
  );
  const rewards = adaptiveBounds([], signed).rewards;
  history.set(task.meta.id, signed.filter(Number.isFinite));
  store.add(
    task.meta.id,
    rows.map((r, i) => ({
      id: `${r.run_id}/${r.node_id}`,
      reward: rewards[i]!,
      testScore: r.status === "success" ? r.test_score : null,
      view: {
        nodeId: `${r.run_id}/${r.node_id}`,
        operator: r.operator,
        code: r.code,
        plan: r.plan ?? "",
        spec: r.spec ? JSON.parse(r.spec) : undefined,
        status: r.status,
        validScore: r.valid_score,
        errorSignature: r.error_signature,
      },
    })),
  );
}

/** A resumed run's evolve-seeded states get their graded test scores back (rl_parent_states has no such column). */
export async function restoreSeedTestScores(ws: Workspace, task: TaskPackage, store: ParentStore): Promise<void> {
  const ids = new Set(store.states(task.meta.id).map((s) => s.id));
  if (![...ids].some((id) => id.includes("/"))) return;
  const rows = await taskNodesWithCode(ws, task.meta.id);
  store.setTestScores(
    task.meta.id,
    new Map(rows.map((r) => [`${r.run_id}/${r.node_id}`, r.status === "success" ? r.test_score : null])),
  );
}
