import type { Workspace } from "../store/index.js";
import type { ExecutionRecord, FeedbackMode, SandboxLimits } from "./types.js";

/** The executions-table row of a record (column names of kit/store/schema.ts). */
export function recordToRow(r: ExecutionRecord): Record<string, unknown> {
  return {
    execution_id: r.executionId,
    idempotency_key: r.idempotencyKey,
    run_id: r.runId ?? null,
    node_id: r.nodeId ?? null,
    task_id: r.taskId,
    backend: r.backend,
    status: r.status,
    valid_score: r.validScore,
    test_score: r.testScore,
    error_type: r.errorType,
    error_signature: r.errorSignature,
    traceback: r.traceback,
    stdout_tail: r.stdoutTail,
    stderr_tail: r.stderrTail,
    wall_s: r.wallS,
    cpu_s: r.cpuS,
    peak_mem_mb: r.peakMemMb,
    artifacts: [...r.artifacts],
    code_hash: r.codeHash,
    limits: JSON.stringify(r.limits),
    started_at: r.startedAt,
    ended_at: r.endedAt,
  };
}

export function rowToRecord(row: Record<string, unknown>): ExecutionRecord {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const limits =
    typeof row.limits === "string" ? (JSON.parse(row.limits) as SandboxLimits) : (row.limits as SandboxLimits);
  return {
    executionId: String(row.execution_id),
    idempotencyKey: String(row.idempotency_key),
    taskId: String(row.task_id),
    backend: String(row.backend),
    status: row.status as FeedbackMode,
    validScore: num(row.valid_score),
    testScore: num(row.test_score),
    errorType: (row.error_type as string) ?? null,
    errorSignature: (row.error_signature as string) ?? null,
    traceback: (row.traceback as string) ?? null,
    stdoutTail: String(row.stdout_tail ?? ""),
    stderrTail: String(row.stderr_tail ?? ""),
    wallS: Number(row.wall_s ?? 0),
    cpuS: Number(row.cpu_s ?? 0),
    peakMemMb: num(row.peak_mem_mb),
    artifacts: (row.artifacts as string[]) ?? [],
    codeHash: String(row.code_hash ?? ""),
    limits,
    startedAt: new Date(row.started_at as string | Date),
    endedAt: new Date(row.ended_at as string | Date),
    ...(row.run_id ? { runId: String(row.run_id) } : {}),
    ...(row.node_id ? { nodeId: String(row.node_id) } : {}),
  };
}

/** The stored record with this idempotency key, or null. */
export async function findExecution(ws: Workspace, idempotencyKey: string): Promise<ExecutionRecord | null> {
  const rows = await ws.query("SELECT * FROM executions WHERE idempotency_key = $k ORDER BY started_at LIMIT 1", {
    k: idempotencyKey,
  });
  return rows[0] ? rowToRecord(rows[0]) : null;
}

/**
 * Graded test scores of a task's stored executions, keyed by code hash (idempotency-key.ts `codeHash`): the mean
 * when the same program ran more than once (other limits or backends). Only executions with a test score count.
 */
export async function testScoresByCode(ws: Workspace, taskId: string): Promise<Map<string, number>> {
  const rows = await ws.query<{ code_hash: string; t: number }>(
    `SELECT code_hash, avg(test_score) AS t FROM executions
     WHERE task_id = $t AND test_score IS NOT NULL AND code_hash IS NOT NULL GROUP BY code_hash`,
    { t: taskId },
  );
  return new Map(rows.map((r) => [r.code_hash, Number(r.t)]));
}

/** An `executions` row as stored (column names of kit/store's schema), for views that show it raw. */
export interface ExecutionRow {
  readonly execution_id: string;
  readonly idempotency_key: string | null;
  readonly run_id: string | null;
  readonly node_id: string | null;
  readonly task_id: string | null;
  readonly backend: string | null;
  readonly status: string | null;
  readonly valid_score: number | null;
  readonly test_score: number | null;
  readonly error_type: string | null;
  readonly error_signature: string | null;
  readonly traceback: string | null;
  readonly stdout_tail: string | null;
  readonly stderr_tail: string | null;
  readonly wall_s: number | null;
  readonly cpu_s: number | null;
  readonly peak_mem_mb: number | null;
  readonly artifacts: string[] | null;
  readonly code_hash: string | null;
  /** The SandboxLimits as JSON text. */
  readonly limits: string | null;
  readonly started_at: Date | null;
  readonly ended_at: Date | null;
}

/** The stored row of one execution, or null when there is none (or no id). */
export async function executionRow(ws: Workspace, executionId: string | null): Promise<ExecutionRow | null> {
  const [row] = await ws.query<ExecutionRow>("SELECT * FROM executions WHERE execution_id = $e", { e: executionId });
  return row ?? null;
}

/**
 * Store a record once: a second write with the same idempotency key (a retried queue job, a
 * duplicate submit) is a no-op that returns the record already stored.
 */
export async function writeExecution(ws: Workspace, record: ExecutionRecord): Promise<ExecutionRecord> {
  return serialized(ws, () =>
    ws.transaction(async () => {
      const existing = await findExecution(ws, record.idempotencyKey);
      if (existing) return existing;
      await ws.append("executions", [recordToRow(record)]);
      return record;
    }),
  );
}

/** Concurrent jobs share one connection: their transactions must not interleave. */
const chains = new WeakMap<Workspace, Promise<unknown>>();
function serialized<T>(ws: Workspace, fn: () => Promise<T>): Promise<T> {
  const prev = chains.get(ws) ?? Promise.resolve();
  const next = prev.catch(() => undefined).then(fn);
  chains.set(ws, next);
  return next;
}
