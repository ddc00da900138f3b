import { Queue, QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import { packageHash, type TaskPackage } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { SandboxError } from "./errors.js";
import { idempotencyKey } from "./idempotency-key.js";
import { jobSettled } from "./job-settled.js";
import { resolveLimits } from "./limits.js";
import { findExecution, writeExecution } from "./record-store.js";
import type { ExecutionRecord, SandboxLimits } from "./types.js";

/** BullMQ queues: CPU jobs and GPU jobs (only workers started with --gpus take the latter). */
export const CPU_QUEUE = "openmle-sandbox";
export const GPU_QUEUE = "openmle-sandbox-gpu";

/** The backend name in the idempotency keys of queue jobs (whichever worker runs them). */
export const QUEUE_BACKEND = "queue";

/**
 * What travels through Redis: a task id and content hash, never a path or task data. A worker
 * runs only tasks it was started with (their ids and hashes must match), so whoever can write to
 * Redis can choose among those tasks but never make a worker load a package of their own.
 */
export interface QueueJobData {
  readonly taskId: string;
  /** The package content hash the client expects (gym's packageHash); a worker with another refuses. */
  readonly taskHash: string;
  readonly code: string | null;
  readonly limits: SandboxLimits;
  readonly priority: number;
  readonly runId?: string;
  readonly nodeId?: string;
}

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

/**
 * Client side of the Redis queue: submit a job and await its record. The BullMQ job id is the
 * idempotency key, so duplicate submits (from any client) share one job; with a workspace, a
 * stored record is returned at once and new records are written once per key.
 */
export class SandboxQueueClient {
  private constructor(
    private readonly conn: Redis,
    private readonly queues: Record<string, Queue>,
    private readonly events: Record<string, QueueEvents>,
    private readonly workspace?: Workspace,
  ) {}

  static async connect(
    redisUrl: string,
    opts: { workspace?: Workspace; prefix?: string } = {},
  ): Promise<SandboxQueueClient> {
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
    const queues: Record<string, Queue> = {};
    const events: Record<string, QueueEvents> = {};
    for (const name of [CPU_QUEUE, GPU_QUEUE]) {
      queues[name] = new Queue(name, { connection: conn, prefix });
      events[name] = new QueueEvents(name, { connection: conn.duplicate(), prefix });
    }
    await Promise.all(Object.values(events).map((e) => e.waitUntilReady()));
    return new SandboxQueueClient(conn, queues, events, opts.workspace);
  }

  async submit(s: QueueSubmit): Promise<ExecutionRecord> {
    const limits = resolveLimits(s.limits);
    const ref =
      "meta" in s.task
        ? { taskId: s.task.meta.id, taskHash: packageHash(s.task.dir) }
        : { taskId: s.task.taskId, taskHash: s.task.taskHash };
    const key = idempotencyKey({ ...ref, code: s.code, limits, backend: QUEUE_BACKEND });
    if (this.workspace) {
      const stored = await findExecution(this.workspace, key);
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
    await this.queues[name]!.add("run", data, {
      jobId: key,
      attempts: 3,
      backoff: { type: "fixed", delay: 500 },
      priority: bullPriority(s.priority ?? 0),
      removeOnComplete: { age: 24 * 3600 },
      removeOnFail: { age: 24 * 3600 },
    });
    let raw: Record<string, unknown>;
    try {
      raw = await jobSettled<Record<string, unknown>>(this.queues[name]!, key, this.events[name]!);
    } catch (e) {
      throw new SandboxError(
        `Queue job ${key} for task ${ref.taskId} failed on every attempt: ${(e as Error).message}`,
        { cause: e },
      );
    }
    const record = reviveRecord(raw);
    return this.workspace ? writeExecution(this.workspace, record) : record;
  }

  async close(): Promise<void> {
    await Promise.all([...Object.values(this.events), ...Object.values(this.queues)].map((q) => q.close()));
    this.conn.disconnect();
  }
}
