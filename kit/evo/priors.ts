import type { Workspace } from "../store/index.js";
import { readFamilyPriors } from "./priors-store.js";

/**
 * Evo-Max cross-task priors: what earlier runs on OTHER tasks of this workspace learnt per method
 * family (never the current task, nor the tasks in `exclude`). Returns a short text block, or "" when there is
 * nothing.
 */
export async function distillPriors(
  ws: Workspace,
  taskId: string,
  limit = 5,
  exclude: readonly string[] = [],
): Promise<string> {
  const rows = await readFamilyPriors(ws, taskId, limit, exclude);
  return rows
    .map(
      (r) =>
        `- ${r.method_family}: ${r.nodes} nodes on ${r.tasks} other task(s), ` +
        `success ${(100 * r.success_rate).toFixed(0)}%, mean reward ` +
        `${r.mean_reward.toFixed(2)}, ${r.champions} champion cards`,
    )
    .join("\n");
}
