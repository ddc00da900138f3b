import type { Workspace } from "../store/index.js";

/**
 * The folder a task of this workspace was built or loaded from (table `tasks`), or null when the
 * workspace holds no row for it or the row has no folder. kit/erl reloads the tasks of stored runs with it.
 */
export async function storedTaskDir(ws: Workspace, taskId: string): Promise<string | null> {
  const [row] = await ws.query<{ dir: string | null }>("SELECT dir FROM tasks WHERE task_id = $t", { t: taskId });
  return row?.dir ?? null;
}
