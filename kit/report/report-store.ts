// The read model of evo's tables for report: runs (with gym's tasks row), each node's card and execution
// record, node_timings. kit/evo's loadNodes rebuilds the nodes themselves.
import type { Workspace } from "../store/index.js";

/** A run with its task's name, metric and direction (null: the task has no tasks row). */
export interface ReportRunRow {
  readonly run_id: string;
  readonly task_id: string;
  readonly harness: string | null;
  readonly policy: string | null;
  readonly seed: number | null;
  readonly status: string | null;
  /** The stored config and summary (JSON text or objects). */
  readonly config: unknown;
  readonly summary: unknown;
  readonly task_name: string | null;
  readonly metric: string | null;
  readonly higher_is_better: boolean | null;
}

/** Every run of the workspace, in start order. */
export async function readReportRuns(ws: Workspace): Promise<ReportRunRow[]> {
  return ws.query<ReportRunRow>(
    `SELECT r.run_id, r.task_id, r.harness, r.policy, r.seed, r.status, r.config, r.summary,
            t.name AS task_name, t.metric, t.higher_is_better
     FROM runs r LEFT JOIN tasks t USING (task_id) ORDER BY r.started_at, r.run_id`,
  );
}

/** A node's whole card and execution record, as JSON (text or objects; null where the row is missing). */
export interface NodeRecordRow {
  readonly node_id: string;
  readonly card: unknown;
  readonly record: unknown;
}

/** The card and execution record of every node of run `runId`. */
export async function readNodeRecords(ws: Workspace, runId: string): Promise<NodeRecordRow[]> {
  return ws.query<NodeRecordRow>(
    `SELECT n.node_id, to_json(c) AS card, to_json(e) AS record FROM nodes n
     LEFT JOIN cards c ON c.run_id = n.run_id AND c.node_id = n.node_id
     LEFT JOIN executions e ON e.execution_id = n.execution_id WHERE n.run_id = $id`,
    { id: runId },
  );
}

/** The parts of a node's time that node_timings keeps (seconds). */
export const TIMING_PARTS = ["policy_s", "context_s", "sandbox_s", "program_s", "scoring_s", "store_s"] as const;
export type TimingPart = (typeof TIMING_PARTS)[number];

/** Totals of node_timings for one run, or for all (run_id null). */
export type TimingTotalsRow = { run_id: string | null; nodes: number; node_s: number } & Record<TimingPart, number>;

/** Per-run totals of node_timings, then the totals of all runs (run_id null, last). */
export async function readTimingTotals(ws: Workspace): Promise<TimingTotalsRow[]> {
  return ws.query<TimingTotalsRow>(
    `SELECT run_id, count(*) AS nodes, sum(node_s) AS node_s,
            ${TIMING_PARTS.map((p) => `sum(${p}) AS ${p}`).join(", ")}
     FROM node_timings GROUP BY GROUPING SETS ((run_id), ()) ORDER BY run_id NULLS LAST`,
  );
}
