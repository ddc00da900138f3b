// What a client accepts as a record from the queue, once its seal is valid (queue-auth.ts): a seal says a key holder
// wrote it, not that it is an ExecutionRecord. A worker of another version, or a rogue one holding the key, could seal
// `startedAt: "yesterday"` (DuckDB threw an untyped RangeError on storing it) or `status: "pwned"` (stored as is).
import { z } from "zod";
import { canonicalJson } from "../store/index.js";
import { QueueRecordError } from "./errors.js";
import { codeHash } from "./idempotency-key.js";
import { quoteFailure } from "./queue-bounds.js";
import { QueueJobSchema } from "./queue-job.js";
import { FEEDBACK_MODES, type ExecutionRecord, type SandboxLimits } from "./types.js";

/** Dates cross Redis as ISO strings (Date#toJSON): `2025-01-31T12:00:00.000Z`. */
const isoDate = z.iso.datetime();
/** JSON has no NaN or Infinity, so any number here is finite. */
const seconds = z.number().min(0);

/** An ExecutionRecord as it reads after the trip through Redis JSON; unknown keys are refused. */
export const QueueRecordSchema = z
  .object({
    executionId: z.string().min(1).max(256),
    idempotencyKey: z.string().min(1).max(256),
    taskId: z.string().min(1).max(256),
    backend: z.string().min(1).max(64),
    status: z.enum(FEEDBACK_MODES),
    validScore: z.number().nullable(),
    testScore: z.number().nullable(),
    errorType: z.string().nullable(),
    errorSignature: z.string().nullable(),
    traceback: z.string().nullable(),
    stdoutTail: z.string(),
    stderrTail: z.string(),
    wallS: seconds,
    cpuS: seconds,
    peakMemMb: z.number().min(0).nullable(),
    artifacts: z.array(z.string()),
    codeHash: z.string(),
    limits: QueueJobSchema.shape.limits,
    startedAt: isoDate,
    endedAt: isoDate,
    runId: z.string().max(256).optional(),
    nodeId: z.string().max(256).optional(),
    exitCode: z.number().int().nullable().optional(),
    exitSignal: z.string().nullable().optional(),
    /** A folder on the worker's host: read, then dropped (it means nothing, or something else, on the client's). */
    workDir: z.string().optional(),
    worker: z.string().max(256).optional(),
    scoringS: seconds.optional(),
    submissionPrint: z
      .object({
        rows: z.number().int().min(0),
        distinct: z.number().int().min(0),
        ordered: z.string().regex(/^[0-9a-f]{16}$/),
        sorted: z.string().regex(/^[0-9a-f]{16}$/),
      })
      .strict()
      .optional(),
    warnings: z.array(z.string()).optional(),
  })
  .strict();

// Every field of ExecutionRecord has a place in the schema, and no other: a field added to the record type without
// one here fails to compile instead of every queue record being refused at run time (the schema is strict).
type SchemaKeys = keyof z.infer<typeof QueueRecordSchema>;
type RecordKeys = keyof ExecutionRecord;
const sameKeys: [Exclude<RecordKeys, SchemaKeys>, Exclude<SchemaKeys, RecordKeys>] extends [never, never]
  ? true
  : never = true;
void sameKeys;

/** What the client asked for: a record must describe this very job. */
export interface QueueRecordJob {
  readonly taskId: string;
  readonly code: string | null;
  readonly limits: SandboxLimits;
}

/**
 * The opened record of queue job `jobId` as an ExecutionRecord (dates revived, `workDir` dropped), or
 * QueueRecordError naming what is wrong: not the schema's shape, or another task, program or limits than the job's.
 */
export function readQueueRecord(jobId: string, raw: Record<string, unknown>, job: QueueRecordJob): ExecutionRecord {
  const fail = (why: string) =>
    new QueueRecordError(
      `Refused the record of queue job ${jobId}: ${why}; nothing was stored. A worker holding the queue key sealed ` +
        `it: check that every worker runs this version of the kit, and who holds the key.`,
      jobId,
    );
  const parsed = QueueRecordSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "record"}: ${i.message}`);
    const more = parsed.error.issues.length > 3 ? ` (and ${parsed.error.issues.length - 3} more)` : "";
    throw fail(`it is not an execution record (${quoteFailure(issues.join("; "))}${more})`);
  }
  const { workDir: _hostPath, ...r } = parsed.data;
  if (r.taskId !== job.taskId) throw fail(`it names task ${quoteFailure(r.taskId)}, the job ran ${job.taskId}`);
  if (r.codeHash !== codeHash(job.code)) throw fail(`its code hash ${quoteFailure(r.codeHash)} is not the job's`);
  if (canonicalJson(r.limits) !== canonicalJson(job.limits))
    throw fail(`its limits ${quoteFailure(canonicalJson(r.limits))} are not the job's`);
  return { ...r, startedAt: new Date(r.startedAt), endedAt: new Date(r.endedAt) };
}
