import { QueueEvents } from "bullmq";
import { Redis } from "ioredis";
import type { z } from "zod";
import { packageHash, type TaskPackage } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { QueueAuthError, QueueRecordError, SandboxConfigError, SandboxError } from "./errors.js";
import { idempotencyKey } from "./idempotency-key.js";
import { jobSettled } from "./job-settled.js";
import { resolveLimits } from "./limits.js";
import {
  jobDataHash,
  openRecord,
  openRefusal,
  resolveQueueKey,
  signJob,
  verifyJob,
  type QueueKeySource,
} from "./queue-auth.js";
import { BoundedEventsRedis, BoundedQueue, DEFAULT_MAX_RECORD_BYTES, quoteFailure } from "./queue-bounds.js";
import { parseRefusal, type QueueJobData } from "./queue-job.js";
import { readQueueRecord, type QueueRecordJob } from "./queue-record.js";
import { QueueWaitConfig, QueueWatch } from "./queue-wait.js";
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

/** What a client reports besides its results: a result it refused (a typed error is thrown too). */
export type QueueClientEvent = { readonly type: "record-refused"; readonly jobId: string; readonly message: string };

/** How often a submit replaces a job it did not add, or one failed by an unsealed refusal, before it gives up. */
export const SUBMIT_TRIES = 3;

export interface QueueClientOptions extends QueueKeySource, Partial<z.input<typeof QueueWaitConfig>> {
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
 * (queue-auth.ts) and the shape of an ExecutionRecord of this job (queue-record.ts); anything else is
 * refused with QueueAuthError or QueueRecordError and never stored. The job id is public (anyone can
 * compute it), so a job found under it is used only when it carries this client's tag for this
 * program, and a refusal only when a worker sealed it (else the job is replaced: SUBMIT_TRIES).
 */
export class SandboxQueueClient {
  private readonly watch: QueueWatch;

  private constructor(
    private readonly conn: Redis,
    private readonly queues: Record<string, BoundedQueue>,
    private readonly events: Record<string, QueueEvents>,
    private readonly key: Buffer,
    private readonly opts: QueueClientOptions,
    private readonly wait: QueueWaitConfig,
  ) {
    this.watch = new QueueWatch(wait);
  }

  static async connect(redisUrl: string, opts: QueueClientOptions = {}): Promise<SandboxQueueClient> {
    const key = resolveQueueKey(opts);
    const wait = waitConfig(opts);
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
    return new SandboxQueueClient(conn, queues, events, key, opts, wait);
  }

  /**
   * 1. a stored record of the key, when there is a workspace; 2. place the job (add, then read back: one this client
   * did not tag for this program is removed and added afresh); 3. wait for it (deadline, paused queue, no workers:
   * QueueWaitError); 4. a refusal counts only when sealed (an unsealed one: replace the job and wait again); 5. open
   * the sealed record, check it is a record of this job, store it.
   */
  async submit(s: QueueSubmit): Promise<ExecutionRecord> {
    const limits = resolveLimits(s.limits);
    const ref =
      "meta" in s.task
        ? { taskId: s.task.meta.id, taskHash: packageHash(s.task.dir) }
        : { taskId: s.task.taskId, taskHash: s.task.taskHash };
    const key = idempotencyKey({ ...ref, code: s.code, limits, backend: QUEUE_BACKEND });
    const workspace = this.opts.workspace;
    // 1.
    if (workspace) {
      const stored = await findExecution(workspace, key);
      if (stored) return stored;
    }
    const name = limits.gpus > 0 ? GPU_QUEUE : CPU_QUEUE;
    const queue = this.queues[name]!;
    const data: QueueJobData = {
      ...ref,
      code: s.code,
      limits,
      priority: s.priority ?? 0,
      ...(s.runId ? { runId: s.runId } : {}),
      ...(s.nodeId ? { nodeId: s.nodeId } : {}),
    };
    const dataHash = jobDataHash(data);
    const deadlineMs = (limits.timeoutS + this.wait.queueWaitS) * 1000;
    const t0 = Date.now();
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= SUBMIT_TRIES;
      // 2.
      const placed = await this.place(queue, key, data, dataHash);
      if (placed !== "ours") {
        if (!last) continue;
        throw new QueueAuthError(
          `Queue job ${key} (task ${ref.taskId}) holds a job this client did not add (${placed}), and replacing ` +
            `it failed ${SUBMIT_TRIES} times: someone who can write to Redis keeps planting it. Check who can.`,
          key,
        );
      }
      // 3.
      let raw: unknown;
      try {
        raw = await jobSettled<unknown>(queue, key, this.events[name]!, {
          pollMs: this.wait.pollMs,
          deadline: {
            ms: deadlineMs - (Date.now() - t0),
            error: () => this.watch.deadline(name, key, limits.timeoutS),
          },
          stuck: (state) => this.watch.stuck(queue, key, state),
        });
      } catch (e) {
        if (e instanceof SandboxError) throw e;
        // 4. The failure text comes from Redis (any worker, or anyone who can write there): shown as quoted data.
        const failure = openRefusal(this.key, key, (e as Error).message);
        const refused = parseRefusal(failure.text, key);
        if (refused && failure.sealed) throw refused;
        if (!refused)
          throw new SandboxError(
            `Queue job ${key} for task ${ref.taskId} failed on every attempt: ${quoteFailure(failure.text)}`,
            { cause: e },
          );
        await queue.remove(key).catch(() => undefined);
        if (!last) continue;
        throw this.refused(
          key,
          `it was failed ${SUBMIT_TRIES} times with a refusal no worker holding this client's key sealed ` +
            `(${quoteFailure(failure.text)}): client and workers have different keys, or someone who can write ` +
            `to Redis forges refusals. Give them the same key, and check who can write to Redis.`,
        );
      }
      // 5.
      const record = await this.accepted(key, dataHash, raw, name, { code: s.code, limits, taskId: ref.taskId });
      return workspace ? writeExecution(workspace, record) : record;
    }
  }

  /**
   * Adds the job and reads back what its id holds: "ours" when it carries this client's tag for this program (any
   * key holder's submit of the same program shares it), else why not, after removing it (a peer can plant a job
   * under an id it computed; a worker running it holds a lock, and the next try finds it again).
   */
  private async place(queue: BoundedQueue, jobId: string, data: QueueJobData, dataHash: string): Promise<string> {
    await queue.add(
      "run",
      { ...data, tag: signJob(this.key, jobId, { ...data }) },
      {
        jobId,
        // No retry of a job that threw on its worker: the error comes back to this client at once. A worker
        // that dies mid-job is another matter: the job runs once more elsewhere (MAX_STALLED_RETRIES, queue-worker.ts).
        attempts: 1,
        priority: bullPriority(data.priority),
        removeOnComplete: { age: 24 * 3600 },
        removeOnFail: { age: 24 * 3600 },
      },
    );
    // BullMQ's add returns a Job of the data given, whatever the id already held: read it back.
    const found = await queue.getJob(jobId);
    if (!found) return "it was removed at once";
    const untagged = verifyJob(this.key, jobId, found.data);
    if (untagged && sameProgram(untagged, dataHash)) return "ours";
    await queue.remove(jobId).catch(() => undefined);
    await new Promise((r) => setTimeout(r, REPLACE_PAUSE_MS));
    return untagged ? "another program, tagged with the key" : "no valid tag of this client's key";
  }

  /** The record of a sealed result of this job, or QueueAuthError/QueueRecordError (reported; the job removed). */
  private async accepted(jobId: string, dataHash: string, raw: unknown, queue: string, job: QueueRecordJob) {
    try {
      return readQueueRecord(jobId, openRecord(this.key, jobId, dataHash, raw), job);
    } catch (e) {
      if (!(e instanceof QueueAuthError || e instanceof QueueRecordError)) throw e;
      this.opts.onEvent?.({ type: "record-refused", jobId, message: e.message });
      // Removed, so that a retry runs it anew instead of meeting the same result.
      await this.queues[queue]!.remove(jobId).catch(() => undefined);
      throw e;
    }
  }

  /** QueueAuthError for a failure this client cannot trust (reported like a refused record). */
  private refused(jobId: string, why: string): QueueAuthError {
    const e = new QueueAuthError(`Refused the failure of queue job ${jobId}: ${why}`, jobId);
    this.opts.onEvent?.({ type: "record-refused", jobId, message: e.message });
    return e;
  }

  async close(): Promise<void> {
    await Promise.all([...Object.values(this.events), ...Object.values(this.queues)].map((q) => q.close()));
    this.conn.disconnect();
  }
}

/** A pause before adding again after a foreign job was removed (a worker may hold it for its refusal first). */
const REPLACE_PAUSE_MS = 300;

/** Whether a job's untagged data is the program this client submits (same task, hash, code and limits). */
function sameProgram(untagged: Record<string, unknown>, dataHash: string): boolean {
  try {
    return jobDataHash(untagged as unknown as QueueJobData) === dataHash;
  } catch {
    return false; // a field canonical JSON cannot hash: not a program of this client's
  }
}

/** The client's wait settings, or SandboxConfigError naming the bad one. */
function waitConfig(o: QueueClientOptions): QueueWaitConfig {
  const parsed = QueueWaitConfig.safeParse({
    queueWaitS: o.queueWaitS,
    pausedS: o.pausedS,
    noWorkerS: o.noWorkerS,
    pollMs: o.pollMs,
  });
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  throw new SandboxConfigError(`Queue client options are invalid (${issues}); see QueueWaitConfig for each one.`);
}
