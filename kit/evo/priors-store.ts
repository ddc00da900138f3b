import type { Workspace } from "../store/index.js";

/** What the cards of earlier runs on other tasks say about one method family. */
export interface FamilyPriorRow {
  method_family: string;
  tasks: number;
  nodes: number;
  success_rate: number;
  mean_reward: number;
  champions: number;
}

/** Per-family results of the cards of runs on tasks other than `taskId` and `exclude`, best mean reward first. */
export async function readFamilyPriors(
  ws: Workspace,
  taskId: string,
  limit: number,
  exclude: readonly string[] = [],
): Promise<FamilyPriorRow[]> {
  return ws.query<FamilyPriorRow>(
    `SELECT c.method_family, count(DISTINCT r.task_id) AS tasks, count(*) AS nodes,
            avg(CASE WHEN c.status = 'success' THEN 1 ELSE 0 END) AS success_rate,
            avg(c.reward) AS mean_reward,
            count(*) FILTER (WHERE c.champion_at_write) AS champions
     FROM cards c JOIN runs r ON r.run_id = c.run_id
     WHERE r.task_id <> $taskId AND c.method_family IS NOT NULL
       AND r.task_id NOT IN (SELECT unnest(from_json($exclude, '["VARCHAR"]')))
     GROUP BY 1 ORDER BY mean_reward DESC, nodes DESC, 1 LIMIT ${Math.max(1, Math.floor(limit))}`,
    { taskId, exclude: JSON.stringify(exclude) },
  );
}
