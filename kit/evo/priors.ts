import type { Workspace } from "../store/index.js";

/**
 * Evo-Max cross-task priors: what earlier runs on OTHER tasks of this workspace learnt per method
 * family (never the current task). Returns a short text block, or "" when there is nothing.
 */
export async function distillPriors(ws: Workspace, taskId: string, limit = 5): Promise<string> {
  const rows = await ws.query<{ method_family: string; tasks: number; nodes: number; success_rate: number; mean_reward: number; champions: number }>(
    `SELECT c.method_family, count(DISTINCT r.task_id) AS tasks, count(*) AS nodes,
            avg(CASE WHEN c.status = 'success' THEN 1 ELSE 0 END) AS success_rate, avg(c.reward) AS mean_reward,
            count(*) FILTER (WHERE c.is_champion) AS champions
     FROM cards c JOIN runs r ON r.run_id = c.run_id
     WHERE r.task_id <> $taskId AND c.method_family IS NOT NULL
     GROUP BY 1 ORDER BY mean_reward DESC, nodes DESC, 1 LIMIT ${Math.max(1, Math.floor(limit))}`,
    { taskId },
  );
  return rows
    .map((r) => `- ${r.method_family}: ${r.nodes} nodes on ${r.tasks} other task(s), success ${(100 * r.success_rate).toFixed(0)}%, mean reward ${r.mean_reward.toFixed(2)}, ${r.champions} champion cards`)
    .join("\n");
}
