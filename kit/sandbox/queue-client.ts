import { QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { packageHash, type TaskPackage } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { QueueAuthError, SandboxError } from "./errors.js";
import { idempotencyKey } from "./idempotency-key.js";
import { jobSettled } from "./job-settled.js";
import { resolveLimits } from "./limits.js";
import { jobDataHash, openRecord, resolveQueueKey, signJob, type QueueKeySource } from "./queue-auth.js";
import { BoundedEventsRedis, BoundedQueue, DEFAULT_MAX_RECORD_BYTES, quoteFailure } from "./queue-bounds.js";
import { parseRefusal, type QueueJobData } from "./queue-job.js";
import { findExecution, writeExecution } from "./record-store.js";
import type { ExecutionRecord, SandboxLimits } from "./types.js";

/** BullMQ queues: CPU jobs and GPU jobs (only workers started with --gpus take the latter). */
export const CPU_QUEUE = "openmle-sandbox";
export const GPU_QUEUE = "openmle-sandbox-gpu";

/** The backend name in the idempotency keys of queue jobs (whichever worker runs them). */
export const QUEUE_BACKEND = "queue";

export interface QueueSubmit {
  /** A loaded task, or its id and content hash (the workers must have been started with it). */
  readonly task: TaskPackage | { readonly taskId: string; readonly taskHash: string };
  readonly code: string | null;
  readonly limits?: Partial<SandboxLimits>;
  /** Higher runs first (as in SandboxPool). */
  readonly priority?: number;
  readonly runId?: string;
  readonly nodeId?: string;
}

/** Kit priority (higher first) → BullMQ priority (1 = highest). */
export function bullPriority(priority: number): number {
  return Math.min(2_000_000, Math.max(1, 1000 - Math.round(priority)));
}

/** ISO strings back to Dates after the trip through Redis JSON. */
export function reviveRecord(raw: Record<string, unknown>): ExecutionRecord {
  return {
    ...(raw as unknown as ExecutionRecord),
    startedAt: new Date(raw.startedAt as string),
    endedAt: new Date(raw.endedAt as string),
  };
}

/** What a client reports besides its results: a result it refused (a typed error is thrown too). */
export type QueueClientEvent = { readonly type: "record-refused"; readonly jobId: string; readonly message: string };

export interface QueueClientOptions extends QueueKeySource {
  /** Store records here, and return a stored record without submitting. */
  readonly workspace?: Workspace;
  readonly prefix?: string;
  readonly onEvent?: (e: QueueClientEvent) => void;
  /**
   * The most bytes of one result this client reads; a larger one is refused unread as not a worker's record
   * (default 8 MiB: DEFAULT_MAX_RECORD_BYTES, in queue-bounds.ts with the reason).
   */
  readonly maxRecordBytes?: number;
}

/**
 * Client side of the Redis queue: submit a job and await its record. The BullMQ job id is the
 * idempotency key, so duplicate submits (from any client) share one job; with a workspace, a
 * stored record is returned at once and new records are written once per key. Jobs carry a tag
 * of the shared queue key, and a result is accepted only with a worker's valid tag for this job
 * (queue-auth.ts); anything else is refused with QueueAuthError and never stored.
 */
export class SandboxQueueClient {
  private constructor(
    private readonly conn: Redis,
    private readonly queues: Record<string, BoundedQueue>,
    private readonly events: Record<string, QueueEvents>,
    private readonly key: Buffer,
    private readonly opts: QueueClientOptions,
  ) {}

  static async connect(redisUrl: string, opts: QueueClientOptions = {}): Promise<SandboxQueueClient> {
    const key = resolveQueueKey(opts);
    const conn = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    try {
      await conn.connect();
    } catch (e) {
      conn.disconnect();
      throw new SandboxError(
        `Cannot reach Redis at ${redisUrl} (${(e as Error).message}). Start redis-server or pass the ` +
          `right --redis URL.`,
        { cause: e },
      );
    }
    const prefix = opts.prefix ?? "openmle";
    const maxRecordBytes = opts.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    const queues: Record<string, BoundedQueue> = {};
    const events: Record<string, QueueEvents> = {};
    for (const name of [CPU_QUEUE, GPU_QUEUE]) {
      queues[name] = new BoundedQueue(name, { connection: conn, prefix });
      queues[name].maxRecordBytes = maxRecordBytes;
      // Results arrive in `completed` events too: their connection bounds each value before BullMQ parses it.
      const eventsConn = new BoundedEventsRedis(conn.options, maxRecordBytes);
      events[name] = new QueueEvents(name, { connection: eventsConn, prefix });
      // An `error` event anyone can add to the stream would otherwise be thrown (no listener); results are polled
      // too (jobSettled), so the events are only the fast path.
      events[name].on("error", () => undefined);
    }
    await Promise.all(Object.values(events).map((e) => e.waitUntilReady()));
    return new SandboxQueueClient(conn, queues, events, key, opts);
  }

  async submit(s: QueueSubmit): Promise<ExecutionRecord> {
    const limits = resolveLimits(s.limits);
    const ref =
      "meta" in s.task
        ? { taskId: s.task.meta.id, taskHash: packageHash(s.task.dir) }
        : { taskId: s.task.taskId, taskHash: s.task.taskHash };
    const key = idempotencyKey({ ...ref, code: s.code, limits, backend: QUEUE_BACKEND });
    const workspace = this.opts.workspace;
    if (workspace) {
      const stored = await findExecution(workspace, key);
      if (stored) return stored;
    }
    const name = limits.gpus > 0 ? GPU_QUEUE : CPU_QUEUE;
    const data: QueueJobData = {
      ...ref,
      code: s.code,
      limits,
      priority: s.priority ?? 0,
      ...(s.runId ? { runId: s.runId } : {}),
      ...(s.nodeId ? { nodeId: s.nodeId } : {}),
    };
    await this.queues[name]!.add(
      "run",
      { ...data, tag: signJob(this.key, key, { ...data }) },
      {
        jobId: key,
        // No retry of a job that threw on its worker: the error comes back to this client at once. A worker
        // that dies mid-job is another matter: the job runs once more elsewhere (MAX_STALLED_RUNS, queue-worker.ts).
        attempts: 1,
        priority: bullPriority(s.priority ?? 0),
        removeOnComplete: { age: 24 * 3600 },
        removeOnFail: { age: 24 * 3600 },
      },
    );
    let raw: unknown;
    try {
      raw = await jobSettled<unknown>(this.queues[name]!, key, this.events[name]!);
    } catch (e) {
      const refused = parseRefusal((e as Error).message, key);
      if (refused) throw refused;
      // The failure text comes from Redis (any worker, or anyone who can write there): shown as quoted data.
      throw new SandboxError(
        `Queue job ${key} for task ${ref.taskId} failed on every attempt: ${quoteFailure((e as Error).message)}`,
        { cause: e },
      );
    }
    const record = reviveRecord(await this.authenticated(key, jobDataHash(data), raw, name));
    return workspace ? writeExecution(workspace, record) : record;
  }

  /** The record of a sealed result, or QueueAuthError (reported, and the job removed so a retry runs it anew). */
  private async authenticated(jobId: string, dataHash: string, raw: unknown, queue: string) {
    try {
      return openRecord(this.key, jobId, dataHash, raw);
    } catch (e) {
      if (!(e instanceof QueueAuthError)) throw e;
      this.opts.onEvent?.({ type: "record-refused", jobId, message: e.message });
      await this.queues[queue]!.remove(jobId).catch(() => undefined);
      throw e;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...Object.values(this.events), ...Object.values(this.queues)].map((q) => q.close()));
    this.conn.disconnect();
  }
}
