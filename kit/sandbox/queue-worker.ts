import { hostname } from "node:os";
import { Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import type { TaskPackage } from "../gym/index.js";
import type { Executor } from "./executor.js";
import { CPU_QUEUE, GPU_QUEUE, type QueueJobData } from "./queue-client.js";
import { SandboxPool } from "./scheduler.js";
import type { ExecutionRecord } from "./types.js";

export type WorkerEvent =
  | { readonly type: "ready"; readonly workerId: string; readonly queues: readonly string[] }
  | { readonly type: "job-active"; readonly workerId: string; readonly jobId: string; readonly taskId: string }
  | { readonly type: "job-completed"; readonly workerId: string; readonly jobId: string; readonly status: string }
  | { readonly type: "job-failed"; readonly workerId: string; readonly jobId: string; readonly message: string };

export interface WorkerOptions {
  readonly redisUrl: string;
  readonly executor: Executor;
  /** Concurrent CPU jobs (one slot each per CPU asked). */
  readonly cpus: number;
  /** GPUs: when > 0 the worker also takes GPU jobs. */
  readonly gpus?: number;
  /** Turns a job's task reference (folder or built-in id) into a package (gym's resolveTask). */
  readonly resolveTask: (ref: string) => Promise<TaskPackage>;
  readonly workerId?: string;
  readonly prefix?: string;
  /** A job's lock lasts this long without renewal; a dead worker's job is retried after it (default 30 s). */
  readonly lockDurationMs?: number;
  /** How often workers look for stalled jobs (default 15 s). */
  readonly stalledIntervalMs?: number;
  readonly onEvent?: (e: WorkerEvent) => void;
}

/**
 * A queue worker: takes jobs from Redis (BullMQ) and runs them on its own SandboxPool. BullMQ's
 * job lock is renewed while a job runs; when a worker dies its lock expires, another worker's
 * stalled-job check moves the job back to waiting and it runs again elsewhere. Only the holder
 * of the current lock can complete a job, so a job completes once; record writes are keyed by
 * idempotency key, so storing it twice is a no-op anyway.
 */
export async function startSandboxWorker(opts: WorkerOptions): Promise<{ readonly workerId: string; close(): Promise<void> }> {
  const workerId = opts.workerId ?? `${hostname()}-${process.pid}`;
  const gpus = opts.gpus ?? 0;
  const pool = new SandboxPool({ cpuSlots: opts.cpus, gpuSlots: gpus, executor: opts.executor });
  const conn = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  const process_ = async (job: Job<QueueJobData>): Promise<ExecutionRecord> => {
    opts.onEvent?.({ type: "job-active", workerId, jobId: String(job.id), taskId: job.data.taskId });
    const task = await opts.resolveTask(job.data.taskRef);
    const { code, limits, priority, runId, nodeId } = job.data;
    const record = await pool.submit({ task, code, limits, priority, ...(runId ? { runId } : {}), ...(nodeId ? { nodeId } : {}) });
    return { ...record, worker: workerId };
  };
  const common = {
    connection: conn,
    prefix: opts.prefix ?? "openmle",
    lockDuration: opts.lockDurationMs ?? 30_000,
    stalledInterval: opts.stalledIntervalMs ?? 15_000,
    maxStalledCount: 3,
  };
  const names = gpus > 0 ? [CPU_QUEUE, GPU_QUEUE] : [CPU_QUEUE];
  const workers = names.map((name) => {
    const w = new Worker<QueueJobData>(name, process_, { ...common, concurrency: name === GPU_QUEUE ? gpus : opts.cpus });
    w.on("completed", (job, rec: ExecutionRecord) => opts.onEvent?.({ type: "job-completed", workerId, jobId: String(job.id), status: rec.status }));
    w.on("failed", (job, err) => opts.onEvent?.({ type: "job-failed", workerId, jobId: String(job?.id), message: err.message }));
    return w;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  opts.onEvent?.({ type: "ready", workerId, queues: names });
  return {
    workerId,
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      conn.disconnect();
    },
  };
}
