// What people read of stored runs: the runs list with node counts, one node with its card, the
// demo's family board (`openmle runs list`, `node show|diff`, `workspace demo`). Rows keep the
// column names of kit/store's schema: `node show --json` prints them as stored.
import type { Workspace } from "../store/index.js";

/** A run with its node counts and best validation scores both ways (the direction is the task's). */
export interface RunNodeCounts {
  readonly run_id: string;
  readonly task_id: string;
  readonly harness: string;
  readonly policy: string;
  readonly seed: number;
  readonly status: string;
  readonly started_at: string | null;
  readonly nodes: number;
  /** Successful nodes with a validation score. */
  readonly valid_nodes: number;
  /** Highest and lowest validation score of a successful node; null when none scored. */
  readonly best_hi: number | null;
  readonly best_lo: number | null;
}

/** A row of `nodes`. */
export interface NodeTableRow {
  readonly run_id: string;
  readonly node_id: string;
  readonly island: number | null;
  readonly step: number | null;
  readonly generation: number | null;
  readonly operator: string | null;
  readonly parents: string[] | null;
  readonly status: string | null;
  readonly error_signature: string | null;
  readonly valid_score: number | null;
  readonly test_score: number | null;
  readonly fitness: number | null;
  readonly reward: number | null;
  readonly admitted: boolean | null;
  readonly plan: string | null;
  readonly code: string | null;
  /** The grammar policy's SolutionSpec as JSON text (null for other policies). */
  readonly spec: string | null;
  readonly log_prob: number | null;
  readonly execution_id: string | null;
  readonly created_at: Date | null;
}

/** A row of `cards`: a node's experience card (docs/paper-map.md: Cards and memory). */
export interface CardTableRow {
  readonly run_id: string;
  readonly node_id: string;
  readonly operator: string | null;
  readonly parents: string[] | null;
  readonly generation_id: number | null;
  readonly score: number | null;
  readonly fitness: number | null;
  readonly reward: number | null;
  readonly status: string | null;
  readonly error_signature: string | null;
  readonly sandbox_time_s: number | null;
  readonly model_time_s: number | null;
  readonly cost_usd: number | null;
  readonly prompt_tokens: number | null;
  readonly completion_tokens: number | null;
  readonly imports: string[] | null;
  readonly method_family: string | null;
  readonly family_explored: number | null;
  readonly delta_vs_parent: number | null;
  readonly novelty: number | null;
  readonly rank: number | null;
  readonly champion_at_write: boolean | null;
  readonly selection_utility: number | null;
  readonly plan: string | null;
  readonly analysis: string | null;
  readonly rich_summary: string | null;
  readonly created_at: Date | null;
  readonly lineage_depth: number | null;
  readonly utility: number | null;
}

/** Cards of one method family in a run: how many, and the best score. */
export interface FamilyBoardRow {
  readonly method_family: string | null;
  readonly nodes: number;
  readonly best: number | null;
}

/** Every run with its node counts, oldest first. */
export async function runNodeCounts(ws: Workspace): Promise<RunNodeCounts[]> {
  return ws.query<RunNodeCounts>(`
    SELECT r.run_id, r.task_id, r.harness, r.policy, r.seed, r.status, CAST(r.started_at AS VARCHAR) AS started_at,
           count(n.node_id) AS nodes, count(n.valid_score) FILTER (WHERE n.status = 'success') AS valid_nodes,
           max(n.valid_score) FILTER (WHERE n.status = 'success') AS best_hi,
           min(n.valid_score) FILTER (WHERE n.status = 'success') AS best_lo
    FROM runs r LEFT JOIN nodes n USING (run_id)
    GROUP BY r.run_id, r.task_id, r.harness, r.policy, r.seed, r.status, r.started_at ORDER BY r.started_at, r.run_id`);
}

/** How many runs the workspace holds. */
export async function countRuns(ws: Workspace): Promise<number> {
  return (await ws.query<{ n: number }>("SELECT count(*) AS n FROM runs"))[0]!.n;
}

/** One node of a run, or null. */
export async function nodeTableRow(ws: Workspace, runId: string, nodeId: string): Promise<NodeTableRow | null> {
  const [row] = await ws.query<NodeTableRow>("SELECT * FROM nodes WHERE run_id = $r AND node_id = $n", {
    r: runId,
    n: nodeId,
  });
  return row ?? null;
}

/** The node ids of a run, in step order. */
export async function nodeIdsOfRun(ws: Workspace, runId: string): Promise<string[]> {
  const rows = await ws.query<{ node_id: string }>("SELECT node_id FROM nodes WHERE run_id = $r ORDER BY step", {
    r: runId,
  });
  return rows.map((r) => r.node_id);
}

/** The experience card of one node, or null. */
export async function cardTableRow(ws: Workspace, runId: string, nodeId: string): Promise<CardTableRow | null> {
  const [row] = await ws.query<CardTableRow>("SELECT * FROM cards WHERE run_id = $r AND node_id = $n", {
    r: runId,
    n: nodeId,
  });
  return row ?? null;
}

/** A run's cards by method family (family order). */
export async function familyBoard(ws: Workspace, runId: string): Promise<FamilyBoardRow[]> {
  return ws.query<FamilyBoardRow>(
    "SELECT method_family, count(*) AS nodes, max(score) AS best FROM cards WHERE run_id = $r GROUP BY 1 ORDER BY 1",
    { r: runId },
  );
}
