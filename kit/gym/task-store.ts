import { join } from "node:path";
import type { Workspace } from "../store/index.js";
import type { TaskMeta, TaskPackage } from "./types.js";

/** A row of `tasks` (kit/store's schema): a task package as runs name it. */
export interface TaskRow {
  readonly task_id: string;
  readonly name: string;
  readonly modality: string;
  readonly task_type: string;
  readonly metric: string;
  readonly higher_is_better: boolean;
  /** The package folder it was loaded from. */
  readonly dir: string;
  readonly source: string | null;
  /** The package's task.json (TaskMeta) as JSON text. */
  readonly spec: string;
}

/** A row of `task_reviews`: one review of a task, deterministic ('quality') or by the LLM gate ('semantic'). */
export interface TaskReviewRow {
  readonly review_id: string;
  readonly task_id: string;
  readonly kind: "quality" | "semantic";
  /** pass/fail for 'quality'; the gate's verdict for 'semantic'. */
  readonly verdict: string;
  readonly accepted: boolean;
  /** The QualityReport or SemanticReview as JSON text. */
  readonly report: string;
}

/** Store a task's row in place of an earlier one of the same id (run it inside a transaction). */
export async function replaceTask(ws: Workspace, row: TaskRow): Promise<void> {
  await ws.exec("DELETE FROM tasks WHERE task_id = $id", { id: row.task_id });
  await ws.append("tasks", [{ ...row }]);
}

/** Append reviews of stored tasks (none: nothing is written). */
export async function appendTaskReviews(ws: Workspace, rows: readonly TaskReviewRow[]): Promise<void> {
  if (rows.length)
    await ws.append(
      "task_reviews",
      rows.map((r) => ({ ...r })),
    );
}

/** Each stored task's modality (TaskMeta.modality), by task id. */
export async function taskModalities(ws: Workspace): Promise<Map<string, string>> {
  const rows = await ws.query<{ task_id: string; modality: string }>("SELECT task_id, modality FROM tasks");
  return new Map(rows.map((r) => [r.task_id, r.modality]));
}

/** Whether each stored task's metric is better when higher (null: not recorded), by task id. */
export async function taskDirections(ws: Workspace): Promise<Map<string, boolean | null>> {
  const rows = await ws.query<{ task_id: string; higher_is_better: boolean | null }>(
    "SELECT task_id, higher_is_better FROM tasks",
  );
  return new Map(rows.map((r) => [r.task_id, r.higher_is_better]));
}

/**
 * The folder a task of this workspace was built or loaded from, or null when the workspace holds no row
 * for it or the row has no folder. kit/erl reloads the tasks of stored runs with it.
 */
export async function storedTaskDir(ws: Workspace, taskId: string): Promise<string | null> {
  const [row] = await ws.query<{ dir: string | null }>("SELECT dir FROM tasks WHERE task_id = $t", { t: taskId });
  return row?.dir ?? null;
}

/**
 * The tasks of this workspace as their rows recorded them: `meta` parsed from the stored task.json, the folder
 * as it was on the recording machine, no description. Enough for what reads only `meta` (the grammar policy's
 * decisions, probes of its distributions, a task's metric direction), not for executing a program: the data
 * need not exist here. Recorded runs (data/recorded-runs) use it for tasks whose packages are not built on this
 * machine. Ids the workspace does not hold are left out.
 */
export async function storedTaskPackages(ws: Workspace, taskIds: readonly string[]): Promise<TaskPackage[]> {
  const rows = await ws.query<{ task_id: string; dir: string | null; spec: string | null }>(
    `SELECT task_id, dir, spec::VARCHAR AS spec FROM tasks
     WHERE task_id IN (SELECT unnest(from_json($ids, '["VARCHAR"]')))`,
    { ids: JSON.stringify(taskIds) },
  );
  const byId = new Map(rows.filter((r) => r.spec).map((r) => [r.task_id, r]));
  return taskIds.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const dir = r.dir ?? "";
    const meta = JSON.parse(r.spec!) as TaskMeta;
    return [
      { dir, publicDir: join(dir, "data", "public"), privateDir: join(dir, "data", "private"), meta, description: "" },
    ];
  });
}
