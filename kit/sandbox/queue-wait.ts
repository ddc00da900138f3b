// How long a client waits for a queue job, and what ends a wait that cannot end on its own. One write to Redis
// (`HSET <prefix>:<queue>:meta paused 1`, what BullMQ's Queue#pause does) stops every worker taking jobs, and a queue
// no worker listens on holds its jobs forever: both left a client waiting silently. The checks are read each poll
// (jobSettled's `stuck`), once per queue per poll interval however many jobs wait, so a normal wait is no slower.
import type { Queue } from "bullmq";
import { z } from "zod";
import { QueueWaitError } from "./errors.js";

export const QueueWaitConfig = z
  .object({
    /**
     * Seconds a job may take beyond its own timeoutS, from submit to result: waiting for a free worker, scoring,
     * a rerun after a worker died (default 3600). Past it the wait ends with QueueWaitError ("deadline"); the job
     * stays queued, and a later submit of it waits for the same job. Raise it for a backlog of many long jobs.
     */
    queueWaitS: z.number().positive().default(3600),
    /**
     * Seconds the job's queue may stay paused while the job waits before the client says so and stops waiting
     * (default 5: nothing in the kit pauses a queue, so a paused one is an operator's doing or a peer's).
     */
    pausedS: z.number().min(0).default(5),
    /**
     * Seconds with no worker connected to the job's queue before the client says so and stops waiting (default 60:
     * a worker restarting is back in a few seconds; a GPU job with no --gpus worker would wait forever).
     */
    noWorkerS: z.number().min(0).default(60),
    /** Milliseconds between polls of a job's state (default 2000; the queue's events answer sooner). */
    pollMs: z.number().int().positive().default(2000),
  })
  .strict();
export type QueueWaitConfig = z.infer<typeof QueueWaitConfig>;

/** What a queue looked like at its last check: since when it has been paused, and without workers (ms, or null). */
interface Health {
  checkedAt: number;
  pausedSince: number | null;
  idleSince: number | null;
  pending: Promise<void> | null;
}

/**
 * Watches the queues a client waits on. `stuck(queue, jobId, state)` is jobSettled's hook: QueueWaitError when the
 * queue has been paused for `pausedS` (while the job waits) or without a worker for `noWorkerS` (while the job is
 * unfinished: a job whose worker died stays active until another worker's stalled check moves it), else null.
 */
export class QueueWatch {
  private readonly health = new Map<string, Health>();

  constructor(
    private readonly cfg: QueueWaitConfig,
    private readonly now: () => number = Date.now,
  ) {}

  async stuck(queue: Queue, jobId: string, state: string): Promise<QueueWaitError | null> {
    const h = await this.check(queue);
    const t = this.now();
    const waiting = state !== "active";
    if (waiting && h.pausedSince !== null && t - h.pausedSince >= this.cfg.pausedS * 1000)
      return new QueueWaitError(
        `Queue ${queue.name} is paused, so no worker takes job ${jobId}: resume it (BullMQ Queue#resume, or ` +
          `\`redis-cli HDEL ${queue.qualifiedName}:meta paused\`) and submit again. Pausing takes one write to ` +
          `Redis: check who can write there.`,
        jobId,
        "paused",
      );
    if (h.idleSince !== null && t - h.idleSince >= this.cfg.noWorkerS * 1000)
      return new QueueWaitError(
        `No worker has listened on queue ${queue.name} for ${Math.round((t - h.idleSince) / 1000)} s, so job ` +
          `${jobId} waits forever: start one (openmle worker --redis <url> --task <task>` +
          `${/gpu/.test(queue.name) ? " --gpus N" : ""}) and submit again.`,
        jobId,
        "no-worker",
      );
    return null;
  }

  /** The deadline's error for a job of `timeoutS` on `queue`. */
  deadline(queueName: string, jobId: string, timeoutS: number): QueueWaitError {
    return new QueueWaitError(
      `Queue job ${jobId} has no result ${timeoutS + this.cfg.queueWaitS} s after it was submitted (its timeoutS ` +
        `${timeoutS} plus the client's queueWaitS ${this.cfg.queueWaitS}); it stays in queue ${queueName}. Check ` +
        `the workers' output, or raise queueWaitS for a long backlog, and submit again.`,
      jobId,
      "deadline",
    );
  }

  /** The queue's health, read at most once per poll interval (concurrent waits share one read). */
  private async check(queue: Queue): Promise<Health> {
    const h = this.health.get(queue.name) ?? {
      checkedAt: -Infinity,
      pausedSince: null,
      idleSince: null,
      pending: null,
    };
    this.health.set(queue.name, h);
    if (this.now() - h.checkedAt < this.cfg.pollMs / 2) return h;
    h.pending ??= this.read(queue, h).finally(() => (h.pending = null));
    await h.pending;
    return h;
  }

  private async read(queue: Queue, h: Health): Promise<void> {
    const [paused, workers] = await Promise.all([
      queue.isPaused().catch(() => null),
      // CLIENT LIST: a Redis user without that right gets an error; then the workers are unknown, never "none".
      queue.getWorkers().then(
        (w) => w.length,
        () => null,
      ),
    ]);
    const t = this.now();
    // After a gap without checks (no job waited) the queue may have changed meanwhile: its clocks start again.
    const gap = t - h.checkedAt > 3 * this.cfg.pollMs;
    h.checkedAt = t;
    if (paused !== null) h.pausedSince = paused ? (gap ? t : (h.pausedSince ?? t)) : null;
    if (workers !== null) h.idleSince = workers === 0 ? (gap ? t : (h.idleSince ?? t)) : null;
  }
}
