import { hostname, tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { UnrecoverableError, type Job } from "bullmq";
import { Redis } from "ioredis";
import { packageHash, type TaskPackage } from "../gym/index.js";
import { QueueJobRefusedError, SandboxConfigError } from "./errors.js";
import type { Executor } from "./executor.js";
import {
  jobDataHash,
  resolveQueueKey,
  sealRecord,
  sealRefusal,
  verifyJob,
  type QueueKeySource,
  type SealedRecord,
} from "./queue-auth.js";
import { BoundedWorker, DEFAULT_MAX_JOB_BYTES, rawRefusal } from "./queue-bounds.js";
import { CPU_QUEUE, GPU_QUEUE, QUEUE_BACKEND } from "./queue-client.js";
import { acceptJob, refusalText, resolveWorkerCaps, type QueueJobData, type WorkerCaps } from "./queue-job.js";
import { SandboxPool } from "./scheduler.js";

/**
 * How often a job whose worker died (its lock expired) goes back to waiting and runs on another worker:
 * once. BullMQ's stalled check moves a job without a lock back to waiting while its stall count is at most
 * maxStalledCount; past it the job fails for good with "job stalled more than allowable limit" (no
 * `attempts` retry), so a program that kills every worker that runs it costs two workers, not all of them.
 */
export const MAX_STALLED_RETRIES = 1;

export type WorkerEvent =
  | {
      readonly type: "ready";
      readonly workerId: string;
      readonly queues: readonly string[];
      readonly tasks: readonly { id: string; hash: string }[];
      readonly caps: WorkerCaps;
    }
  | { readonly type: "job-active"; readonly workerId: string; readonly jobId: string; readonly taskId: string }
  | { readonly type: "job-completed"; readonly workerId: string; readonly jobId: string; readonly status: string }
  | { readonly type: "job-failed"; readonly workerId: string; readonly jobId: string; readonly message: string }
  | { readonly type: "warning"; readonly workerId: string; readonly message: string };

/** A worker's settings; the queue key comes from `key`, `keyFile` or OPENMLE_QUEUE_KEY (required). */
export interface WorkerOptions extends QueueKeySource {
  readonly redisUrl: string;
  readonly executor: Executor;
  /** Concurrent CPU jobs (one slot each per CPU asked). */
  readonly cpus: number;
  /** GPUs: when > 0 the worker also takes GPU jobs. */
  readonly gpus?: number;
  /**
   * The only tasks this worker runs (loaded by its operator, e.g. `openmle worker --task`). Jobs
   * name a task id and content hash; any other id, or the same id with other content, is refused.
   */
  readonly tasks: readonly TaskPackage[];
  /**
   * The most one job may ask for (`openmle worker --max-timeout/--max-memory/--max-disk/--max-cpus`);
   * a job over a cap is refused, naming it. Defaults: the kit's default job limits and `cpus`.
   */
  readonly caps?: Partial<WorkerCaps>;
  /** Where job folders go (default the system temp folder's openmle-jobs); no task may lie inside. */
  readonly jobsDir?: string;
  readonly workerId?: string;
  readonly prefix?: string;
  /** A job's lock lasts this long without renewal; a dead worker's job is retried after it (default 30 s). */
  readonly lockDurationMs?: number;
  /** How often workers look for stalled jobs (default 15 s). */
  readonly stalledIntervalMs?: number;
  /**
   * The most bytes of one job's data (its program and limits) this worker reads; a larger job is refused unread
   * (default 1 MiB: DEFAULT_MAX_JOB_BYTES, in queue-bounds.ts with the reason).
   */
  readonly maxJobBytes?: number;
  readonly onEvent?: (e: WorkerEvent) => void;
}

/**
 * A queue worker: takes jobs from Redis (BullMQ) and runs them on its own SandboxPool. BullMQ's
 * job lock is renewed while a job runs; when a worker dies its lock expires, another worker's
 * stalled-job check moves the job back to waiting and it runs again elsewhere. Only the holder
 * of the current lock can complete a job, so a job completes once; record writes are keyed by
 * idempotency key, so storing it twice is a no-op anyway. A job is refused at once (no retry)
 * without a valid tag of the queue key, when malformed, when its limits exceed the worker's caps, or
 * for a task the worker was not started with (or with another content hash). Results go back sealed
 * with the key for their job (queue-auth.ts), so clients can tell them from forgeries.
 */
export async function startSandboxWorker(opts: WorkerOptions): Promise<SandboxWorker> {
  const workerId = opts.workerId ?? `${hostname()}-${process.pid}`;
  const key = resolveQueueKey(opts);
  const gpus = opts.gpus ?? 0;
  const caps = resolveWorkerCaps(opts.caps ?? {}, opts.cpus);
  const jobsRoot = resolve(opts.jobsDir ?? join(tmpdir(), "openmle-jobs"));
  const tasks = new Map<string, TaskPackage>();
  for (const t of opts.tasks) {
    const rel = relative(jobsRoot, resolve(t.dir));
    if (!rel.startsWith("..") && !isAbsolute(rel))
      throw new SandboxConfigError(
        `Task ${t.meta.id} lies inside the job folders (${t.dir}); a worker serves only task ` +
          `packages outside ${jobsRoot}.`,
      );
    if (tasks.has(t.meta.id) && tasks.get(t.meta.id)!.dir !== t.dir)
      throw new SandboxConfigError(
        `Two task packages share the id ${t.meta.id} (${tasks.get(t.meta.id)!.dir}, ${t.dir}); give ` +
          `the worker one of them.`,
      );
    tasks.set(t.meta.id, t);
  }
  if (tasks.size === 0)
    throw new SandboxConfigError(
      "A worker needs the tasks it may run: pass at least one (openmle worker --task <folder|built-in id>).",
    );
  const pool = new SandboxPool({
    cpuSlots: opts.cpus,
    gpuSlots: gpus,
    executor: opts.executor,
    jobsDir: opts.jobsDir,
    keyBackend: QUEUE_BACKEND,
    // Redis answers a duplicate by its job id (kept 24 h): records kept here too would only grow (issue 59).
    doneCacheSize: 0,
  });
  const conn = new Redis(opts.redisUrl, { maxRetriesPerRequest: null });
  /** Steps 1–4 before anything runs: tag, shape, caps, task; each refusal fails the job for good. */
  const admit = (job: Job): { data: QueueJobData; task: TaskPackage } => {
    const jobId = String(job.id);
    const untagged = verifyJob(key, jobId, job.data);
    if (!untagged)
      throw new QueueJobRefusedError(
        `the job carries no valid tag of this worker's queue key (jobs are accepted only from holders of ` +
          `the key; give clients and workers the same key: OPENMLE_QUEUE_KEY or keyFile)`,
        "unauthenticated",
      );
    const data = acceptJob(untagged, caps, gpus);
    const task = tasks.get(data.taskId);
    if (!task)
      throw new QueueJobRefusedError(
        `worker ${workerId} does not run task ${JSON.stringify(data.taskId)}; it runs ` +
          `${[...tasks.keys()].join(", ")}. Start a worker with --task for it`,
        "unknown-task",
      );
    const hash = packageHash(task.dir);
    if (hash !== data.taskHash)
      throw new QueueJobRefusedError(
        `worker ${workerId} has task ${data.taskId} with content hash ${hash}, the job asks for ` +
          `${JSON.stringify(data.taskHash)}: the packages differ. Give client and workers the same package`,
        "other-package",
      );
    return { data, task };
  };
  const process_ = async (job: Job): Promise<SealedRecord> => {
    const raw = job.data as Partial<QueueJobData> | null;
    opts.onEvent?.({ type: "job-active", workerId, jobId: String(job.id), taskId: String(raw?.taskId) });
    let admitted: { data: QueueJobData; task: TaskPackage };
    try {
      const unread = rawRefusal(job);
      if (unread) throw unread;
      admitted = admit(job);
    } catch (e) {
      // Sealed, so that clients can tell it from the refusal-shaped failures anyone who can write to Redis can plant.
      if (e instanceof QueueJobRefusedError)
        throw new UnrecoverableError(sealRefusal(key, String(job.id), refusalText(e)));
      throw e;
    }
    const { data, task } = admitted;
    const { code, limits, priority, runId, nodeId } = data;
    const record = await pool.submit({
      task,
      code,
      limits,
      priority,
      ...(runId ? { runId } : {}),
      ...(nodeId ? { nodeId } : {}),
    });
    // A kept job folder (jobsDir) is a path on this host: it means nothing, or another folder, on the client's.
    const { workDir: _hostPath, ...portable } = record;
    return sealRecord(key, String(job.id), jobDataHash(data), { ...portable, worker: workerId });
  };
  const common = {
    connection: conn,
    prefix: opts.prefix ?? "openmle",
    lockDuration: opts.lockDurationMs ?? 30_000,
    stalledInterval: opts.stalledIntervalMs ?? 15_000,
    maxStalledCount: MAX_STALLED_RETRIES,
  };
  const names = gpus > 0 ? [CPU_QUEUE, GPU_QUEUE] : [CPU_QUEUE];
  const workers = names.map((name) => {
    const w = new BoundedWorker<QueueJobData, SealedRecord>(name, process_, {
      ...common,
      concurrency: name === GPU_QUEUE ? gpus : opts.cpus,
    });
    w.maxJobBytes = opts.maxJobBytes ?? DEFAULT_MAX_JOB_BYTES;
    w.on("completed", (job, sealed: SealedRecord) =>
      opts.onEvent?.({ type: "job-completed", workerId, jobId: String(job.id), status: String(sealed.record.status) }),
    );
    w.on("failed", (job, err) =>
      opts.onEvent?.({ type: "job-failed", workerId, jobId: String(job?.id), message: err.message }),
    );
    return w;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  const pauses = watchPauses(conn, common.prefix, names, (message) =>
    opts.onEvent?.({ type: "warning", workerId, message }),
  );
  opts.onEvent?.({
    type: "ready",
    workerId,
    queues: names,
    tasks: [...tasks.values()].map((t) => ({ id: t.meta.id, hash: packageHash(t.dir) })),
    caps,
  });
  const close = closer(workers, conn);
  return {
    workerId,
    close: (o) => {
      clearInterval(pauses);
      return close(o);
    },
  };
}

/** How often a worker looks whether its queues are paused (one HEXISTS per queue). */
const PAUSE_CHECK_MS = 10_000;

/**
 * Warns once each time one of the worker's queues is found paused (BullMQ then hands it no job: the clients waiting
 * say so too, queue-wait.ts), and once when it is resumed.
 */
function watchPauses(conn: Redis, prefix: string, names: readonly string[], warn: (m: string) => void) {
  const paused = new Set<string>();
  const check = async () => {
    for (const name of names) {
      const flag = await conn.hexists(`${prefix}:${name}:meta`, "paused").catch(() => null);
      const now = flag === 1;
      if (flag === null || now === paused.has(name)) continue; // Redis unreachable: nothing known
      if (now) paused.add(name);
      else paused.delete(name);
      warn(
        now
          ? `queue ${name} is paused: this worker takes no job from it until it is resumed (BullMQ Queue#resume, ` +
              `or \`redis-cli HDEL ${prefix}:${name}:meta paused\`); pausing takes one write to Redis`
          : `queue ${name} was resumed`,
      );
    }
  };
  void check();
  return setInterval(() => void check(), PAUSE_CHECK_MS).unref();
}

/** A started worker; `close` says how it ended. */
export interface SandboxWorker {
  readonly workerId: string;
  /**
   * Stop taking jobs and close. While Redis answers it waits for the running jobs to finish ("clean"). When
   * Redis cannot be reached (already, or while waiting), or when `force` is given (e.g. a second SIGINT), it
   * closes at once without them ("forced"): their locks expire and another worker runs them again.
   */
  close(opts?: { readonly force?: boolean }): Promise<"clean" | "forced">;
}

/** How long a forced close waits for BullMQ's own force-close before dropping the connections anyway. */
const FORCE_CLOSE_MS = 1000;

function closer(workers: readonly Pick<BoundedWorker, "close" | "disconnect">[], conn: Redis): SandboxWorker["close"] {
  let forceNow: () => void = () => undefined;
  const forced = new Promise<"forced">((resolve) => (forceNow = () => resolve("forced")));
  let closing: Promise<"clean" | "forced"> | null = null;
  const redisDown = () => conn.status !== "ready";
  const forceClose = async () => {
    const bullmq = Promise.allSettled(workers.map((w) => w.close(true)));
    await Promise.race([bullmq, new Promise((r) => setTimeout(r, FORCE_CLOSE_MS).unref())]);
    for (const w of workers) void w.disconnect().catch(() => undefined);
    conn.disconnect();
  };
  const run = async (): Promise<"clean" | "forced"> => {
    if (redisDown()) forceNow();
    // Redis going away while the running jobs finish forces the close too (BullMQ would wait for it forever).
    const watch = setInterval(() => redisDown() && forceNow(), 250);
    const graceful = Promise.all(workers.map((w) => w.close())).then(() => "clean" as const);
    const how = await Promise.race([graceful, forced]).finally(() => clearInterval(watch));
    if (how === "clean") conn.disconnect();
    else await forceClose();
    return how;
  };
  return (opts = {}) => {
    if (opts.force) forceNow();
    return (closing ??= run());
  };
}
