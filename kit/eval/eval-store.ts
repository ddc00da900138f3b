// The read model of evo's tables for eval: runs and nodes (with gym's tasks and llm's llm_calls rows they
// join). eval sits below evo (erl → eval), so it reads the tables here instead of importing kit/evo.
import type { Workspace } from "../store/index.js";
import type { EffCall, EffNode } from "./search-efficiency.js";

/** A run that is not still running, with its task's modality and metric direction (null: no tasks row). */
export interface FinishedRunRow {
  readonly run_id: string;
  readonly task_id: string;
  readonly harness: string | null;
  readonly policy: string | null;
  /** The stored config (JSON text or object). */
  readonly config: unknown;
  readonly config_hash: string | null;
  readonly seed: number | null;
  readonly status: string | null;
  /** The stored summary (JSON text or object). */
  readonly summary: unknown;
  readonly modality: string | null;
  readonly higher_is_better: boolean | null;
}

/** Every run not still running, in run id order. */
export async function readFinishedRuns(ws: Workspace): Promise<FinishedRunRow[]> {
  return ws.query<FinishedRunRow>(
    `SELECT r.run_id, r.task_id, r.harness, r.policy, r.config, r.config_hash, r.seed, r.status, r.summary,
            t.modality, t.higher_is_better
     FROM runs r LEFT JOIN tasks t USING (task_id)
     WHERE coalesce(r.status, '') <> 'running' ORDER BY r.run_id`,
  );
}

/** A node's outcome and scores. */
export interface NodeScoreRow {
  readonly run_id: string;
  readonly node_id: string;
  readonly status: string | null;
  readonly valid_score: number | null;
  readonly test_score: number | null;
}

/** Every node of the workspace, with its outcome and scores. */
export async function readNodeScores(ws: Workspace): Promise<NodeScoreRow[]> {
  return ws.query<NodeScoreRow>("SELECT run_id, node_id, status, valid_score, test_score FROM nodes");
}

/** A node as search efficiency reads it, with its run's harness. */
export type SearchNodeRow = EffNode & {
  harness: string;
  parents: string[];
  status: string | null;
  generation: number | null;
};

/** The runs' filter on column `col`: every run, or those of `runIds`. */
const runFilter = (runIds?: readonly string[], col = "n.run_id") => ({
  where: runIds ? `WHERE ${col} IN (SELECT unnest(from_json($ids, '["VARCHAR"]')))` : "",
  // The ids travel as one JSON text: a JS array is no DuckDB parameter ("Cannot create values of type ANY").
  params: runIds ? { ids: JSON.stringify([...runIds]) } : undefined,
});

/** The nodes of the workspace's runs (or of `runIds`), by run, step and node id. */
export async function readSearchNodes(ws: Workspace, runIds?: readonly string[]): Promise<SearchNodeRow[]> {
  const { where, params } = runFilter(runIds);
  return ws.query<SearchNodeRow>(
    `SELECT n.run_id, n.node_id, n.step, n.generation, coalesce(n.operator, 'unknown') AS operator, n.valid_score,
            n.status, coalesce(n.parents, []) AS parents, coalesce(r.harness, 'unknown') AS harness
     FROM nodes n LEFT JOIN runs r USING (run_id) ${where} ORDER BY n.run_id, n.step, n.node_id`,
    params,
  );
}

/** The operator LLM calls (llm_calls with purpose `operator` or none) of the runs (or of `runIds`). */
export async function readOperatorCalls(ws: Workspace, runIds?: readonly string[]): Promise<EffCall[]> {
  const { where, params } = runFilter(runIds);
  return ws.query<EffCall>(
    `SELECT run_id, operator, prompt_chars, prompt_tokens, completion_tokens FROM llm_calls n
     ${where ? `${where} AND` : "WHERE"} coalesce(purpose, 'operator') = 'operator'`,
    params,
  );
}

/**
 * Every node's prompt size as an operator-call row (cards.prompt_chars: the prompt its context renders to, recorded
 * for every policy; null before migration 10), tokens null: what searchEfficiency reads for a run without LLM calls.
 */
export async function readNodePrompts(ws: Workspace, runIds?: readonly string[]): Promise<EffCall[]> {
  const { where, params } = runFilter(runIds);
  return ws.query<EffCall>(
    `SELECT run_id, operator, prompt_chars, NULL::INTEGER AS prompt_tokens, NULL::INTEGER AS completion_tokens
     FROM cards n ${where} ORDER BY run_id, node_id`,
    params,
  );
}

/** A run's task and its metric direction (null: the task has no tasks row). */
export interface RunTaskRow {
  readonly run_id: string;
  readonly task_id: string;
  readonly higher_is_better: boolean | null;
}

/** Every run's task and metric direction. */
export async function readRunTasks(ws: Workspace): Promise<RunTaskRow[]> {
  return ws.query<RunTaskRow>(
    "SELECT r.run_id, r.task_id, t.higher_is_better FROM runs r LEFT JOIN tasks t USING (task_id)",
  );
}

/** What a run's throughput is computed from (throughput.ts): its times, worker count and nodes' program time. */
export interface RunThroughputRow {
  readonly run_id: string;
  readonly status: string | null;
  /** runs.started_at / ended_at and the latest nodes.created_at, in ms since the epoch (null when absent). */
  readonly started_ms: number | null;
  readonly ended_ms: number | null;
  readonly last_node_ms: number | null;
  /** config.workers as stored; null when the config has none. */
  readonly workers: number | null;
  readonly nodes: number;
  /**
   * Sum over the nodes of node_timings.program_s (0 for a reused record); a node without a timing row counts its
   * record's executions.wall_s when the record is its own (same run_id and node_id), else 0 (reused from another).
   */
  readonly program_s: number;
}

/** Every run's throughput inputs (or those of `runIds`), in start order. */
export async function readRunThroughput(ws: Workspace, runIds?: readonly string[]): Promise<RunThroughputRow[]> {
  const { where, params } = runFilter(runIds, "r.run_id");
  return ws.query<RunThroughputRow>(
    `WITH per_run AS (
       SELECT n.run_id, count(*) AS nodes, epoch_us(max(n.created_at)) / 1000 AS last_node_ms,
              sum(coalesce(t.program_s, CASE WHEN e.run_id = n.run_id AND e.node_id = n.node_id THEN e.wall_s END, 0))
                AS program_s
       FROM nodes n LEFT JOIN executions e ON e.execution_id = n.execution_id
       LEFT JOIN node_timings t ON t.run_id = n.run_id AND t.node_id = n.node_id GROUP BY n.run_id)
     SELECT r.run_id, r.status, epoch_us(r.started_at) / 1000 AS started_ms, epoch_us(r.ended_at) / 1000 AS ended_ms,
            p.last_node_ms, TRY_CAST(json_extract_string(r.config, '$.workers') AS DOUBLE) AS workers,
            coalesce(p.nodes, 0) AS nodes, coalesce(p.program_s, 0) AS program_s
     FROM runs r LEFT JOIN per_run p USING (run_id) ${where}
     ORDER BY r.started_at, r.run_id`,
    params,
  );
}
