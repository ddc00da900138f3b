// The read model of a search's trajectory: each run's nodes with their lineage, the run's step budget,
// its metric direction and its final champion (`runs.champion_node_id`, which evolve writes when the run ends).
import type { Workspace } from "../store/index.js";

/** A run as the trajectory analysis reads it. */
export interface TrajectoryRunRow {
  readonly run_id: string;
  readonly task_id: string;
  readonly harness: string;
  readonly status: string | null;
  /** null: the task has no tasks row (counted higher-is-better by the caller). */
  readonly higher_is_better: boolean | null;
  /** The configured step budget (`runs.config.steps`); null when the config does not say. */
  readonly step_budget: number | null;
  /** The final champion: `runs.champion_node_id` (written when the run ends; null before that). */
  readonly champion_node_id: string | null;
}

/** A node as the trajectory analysis reads it (0-based steps, as stored). */
export interface TrajectoryNodeRow {
  readonly run_id: string;
  readonly node_id: string;
  readonly step: number | null;
  readonly operator: string;
  readonly parents: string[];
  readonly status: string | null;
  readonly valid_score: number | null;
  readonly test_score: number | null;
  /** The program (its validation scheme is read from it: validation-scheme.ts). */
  readonly code: string | null;
}

const filter = (col: string, runIds?: readonly string[]) => ({
  where: runIds ? `WHERE ${col} IN (SELECT unnest(from_json($ids, '["VARCHAR"]')))` : "",
  params: runIds ? { ids: JSON.stringify([...runIds]) } : undefined,
});

/** The workspace's runs (or those of `runIds`), in run id order. */
export async function readTrajectoryRuns(ws: Workspace, runIds?: readonly string[]): Promise<TrajectoryRunRow[]> {
  const { where, params } = filter("r.run_id", runIds);
  return ws.query<TrajectoryRunRow>(
    `SELECT r.run_id, r.task_id, coalesce(r.harness, 'unknown') AS harness, r.status, t.higher_is_better,
            TRY_CAST(json_extract_string(r.config, '$.steps') AS BIGINT) AS step_budget,
            r.champion_node_id
     FROM runs r LEFT JOIN tasks t USING (task_id) ${where} ORDER BY r.run_id`,
    params,
  );
}

/** The nodes of the workspace's runs (or of `runIds`), by run, step and node id. */
export async function readTrajectoryNodes(ws: Workspace, runIds?: readonly string[]): Promise<TrajectoryNodeRow[]> {
  const { where, params } = filter("run_id", runIds);
  return ws.query<TrajectoryNodeRow>(
    `SELECT run_id, node_id, step, coalesce(operator, 'unknown') AS operator, coalesce(parents, []) AS parents,
            status, valid_score, test_score, code
     FROM nodes ${where} ORDER BY run_id, step, node_id`,
    params,
  );
}
