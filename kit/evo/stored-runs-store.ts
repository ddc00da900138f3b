import type { Workspace } from "../store/index.js";
import type { NodeView, Operator } from "../policy/types.js";

/**
 * Reads of stored evolve runs for the layers that learn from them (kit/erl: SFT segments, RL parent
 * seeds, the loop's held-out scores). JSON columns come back as the stored text.
 */

/** One `runs` row as the trainers read it. */
export interface StoredRunRow {
  readonly run_id: string;
  readonly task_id: string;
  readonly policy: string | null;
  readonly status: string;
  /** The run's config as stored (JSON text), or null. */
  readonly config: string | null;
  /** The run's summary as stored (JSON text; set when the run ended), or null. */
  readonly summary: string | null;
}

/** The stored row of run `runId`, or null when the workspace has none. */
export async function readStoredRun(ws: Workspace, runId: string): Promise<StoredRunRow | null> {
  const [row] = await ws.query<StoredRunRow>(
    "SELECT run_id, task_id, policy, status, config, summary FROM runs WHERE run_id = $r",
    { r: runId },
  );
  return row ?? null;
}

/** Every run that is not running (finished, failed, killed), oldest first. */
export async function endedRunIds(ws: Workspace): Promise<string[]> {
  const rows = await ws.query<{ run_id: string }>(
    "SELECT run_id FROM runs WHERE status <> 'running' ORDER BY started_at, run_id",
  );
  return rows.map((r) => r.run_id);
}

/** Whether run `runId` has at least one node whose program succeeded (a valid score). */
export async function runHasSuccess(ws: Workspace, runId: string): Promise<boolean> {
  const rows = await ws.query("SELECT 1 FROM nodes WHERE run_id = $r AND status = 'success' LIMIT 1", { r: runId });
  return rows.length > 0;
}

/** The mean validation score of a run's successful drafts, or null without any. */
export async function meanDraftValidScore(ws: Workspace, runId: string): Promise<number | null> {
  const [row] = await ws.query<{ m: number | null }>(
    "SELECT avg(valid_score) AS m FROM nodes WHERE run_id = $r AND operator = 'draft' AND status = 'success'",
    { r: runId },
  );
  return row?.m ?? null;
}

/** A node with a program, as a trainer seeds its parents from it. */
export interface TaskNodeRow {
  readonly run_id: string;
  readonly node_id: string;
  readonly operator: Operator;
  readonly code: string;
  readonly plan: string | null;
  /** The grammar spec as stored (JSON text), or null. */
  readonly spec: string | null;
  readonly status: NodeView["status"];
  readonly valid_score: number | null;
  readonly test_score: number | null;
  readonly error_signature: string | null;
}

/** Every node with a program of every stored run of task `taskId`, by run and step. */
export async function taskNodesWithCode(ws: Workspace, taskId: string): Promise<TaskNodeRow[]> {
  return ws.query<TaskNodeRow>(
    `SELECT n.run_id, n.node_id, n.operator, n.code, n.plan, n.spec, n.status, n.valid_score, n.test_score,
            n.error_signature
     FROM nodes n JOIN runs r USING (run_id) WHERE r.task_id = $t AND n.code IS NOT NULL ORDER BY n.run_id, n.step`,
    { t: taskId },
  );
}
