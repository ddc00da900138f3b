import { packageHash } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { SandboxCancelledError, SandboxConfigError } from "./errors.js";
import type { Executor } from "./executor.js";
import { idempotencyKey } from "./idempotency-key.js";
import { resolveLimits } from "./limits.js";
import { runSandbox, type RunSandboxOptions, type SandboxEvent } from "./run-sandbox.js";
import type { ExecutionRecord, SandboxJob } from "./types.js";

export interface PoolOptions {
  /** CPU slots; a job takes as many as its limits.cpus (at most all of them). */
  readonly cpuSlots: number;
  /** GPU slots; a job takes limits.gpus of them. */
  readonly gpuSlots?: number;
  readonly executor?: Executor;
  readonly workspace?: Workspace;
  readonly scorer?: RunSandboxOptions["scorer"];
  readonly jobsDir?: string;
  /** Backend name in idempotency keys (default the executor's; the queue worker uses "queue"). */
  readonly keyBackend?: string;
  /**
   * How many finished records the pool keeps to answer a duplicate without running it, least recently used out
   * first (default DONE_CACHE_SIZE; 0 keeps none: the queue worker, whose duplicates Redis answers by job id).
   */
  readonly doneCacheSize?: number;
  readonly onEvent?: (e: SandboxEvent) => void;
}

/**
 * Finished records a pool keeps by default: 256. A record holds two output tails of up to 64 KiB each (a worker
 * kept about 126 KiB a job for non-ASCII output), so at most ~32 MiB; never evicting kept ~1.2 GiB after 10,000
 * such jobs. A search resubmits a program soon after it ran (a duplicate draft, an RL group's repeat), well within
 * 256 jobs; an older one runs again, or comes from the workspace when there is one.
 */
export const DONE_CACHE_SIZE = 256;

interface Queued {
  readonly job: SandboxJob & { signal?: AbortSignal };
  readonly key: string;
  readonly cpu: number;
  readonly gpu: number;
  readonly seq: number;
  resolve(r: ExecutionRecord): void;
  reject(e: unknown): void;
}

/**
 * In-process scheduler: a pool of CPU and GPU slots. Jobs run highest priority first (FIFO among
 * equals, no overtaking, so a big job is never starved by small ones); each job's own limits
 * give its timeout; an AbortSignal cancels it queued or running. Idempotency: a job whose key
 * (task package content, code hash, limits, backend) is running, or among the last `doneCacheSize` done, returns
 * that same record without running again.
 */
export class SandboxPool {
  private queue: Queued[] = [];
  private freeCpu: number;
  private freeGpu: number;
  /** GPU indices not in use; a GPU job gets CUDA_VISIBLE_DEVICES set to the ones it holds. */
  private freeGpuIds: number[];
  private seq = 0;
  private readonly inFlight = new Map<string, Promise<ExecutionRecord>>();
  private readonly done = new Map<string, ExecutionRecord>();
  private runningCount = 0;

  constructor(private readonly opts: PoolOptions) {
    if (!(opts.cpuSlots >= 1))
      throw new SandboxConfigError(`SandboxPool cpuSlots=${opts.cpuSlots} is invalid: use an integer >= 1.`);
    if (opts.doneCacheSize !== undefined && !(opts.doneCacheSize >= 0))
      throw new SandboxConfigError(`SandboxPool doneCacheSize=${opts.doneCacheSize} is invalid: use 0 or more.`);
    this.freeCpu = opts.cpuSlots;
    this.freeGpu = opts.gpuSlots ?? 0;
    this.freeGpuIds = Array.from({ length: this.freeGpu }, (_, i) => i);
  }

  get running(): number {
    return this.runningCount;
  }
  get queued(): number {
    return this.queue.length;
  }

  /** Submit a job and wait for its record. */
  submit(job: SandboxJob & { signal?: AbortSignal }): Promise<ExecutionRecord> {
    const limits = resolveLimits(job.limits);
    const key = idempotencyKey({
      taskId: job.task.meta.id,
      taskHash: packageHash(job.task.dir),
      code: job.code,
      limits,
      backend: this.opts.keyBackend ?? this.opts.executor?.name ?? "local",
    });
    const known = this.done.get(key);
    if (known) {
      // Most recently used last: Map keeps insertion order, so the first key is the one to evict.
      this.done.delete(key);
      this.done.set(key, known);
      return Promise.resolve(known);
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const cpu = Math.min(limits.cpus, this.opts.cpuSlots);
    if (limits.gpus > (this.opts.gpuSlots ?? 0)) {
      return Promise.reject(
        new SandboxConfigError(
          `Job asks for ${limits.gpus} GPU(s) but the pool has ${this.opts.gpuSlots ?? 0}. Give the ` +
            `pool gpuSlots or the job gpus: 0.`,
        ),
      );
    }
    let onAbort: (() => void) | undefined;
    const p = new Promise<ExecutionRecord>((resolve, reject) => {
      const q: Queued = { job: { ...job, limits }, key, cpu, gpu: limits.gpus, seq: this.seq++, resolve, reject };
      this.queue.push(q);
      this.queue.sort((a, b) => (b.job.priority ?? 0) - (a.job.priority ?? 0) || a.seq - b.seq);
      onAbort = () => this.cancelQueued(q);
      job.signal?.addEventListener("abort", onAbort, { once: true });
      this.pump();
    });
    this.inFlight.set(key, p);
    // A long-lived signal (one per search) would otherwise keep a listener per finished job.
    const forget = () => {
      this.inFlight.delete(key);
      if (onAbort) job.signal?.removeEventListener("abort", onAbort);
    };
    p.then(forget, forget);
    return p;
  }

  /** Resolves when nothing is queued or running. */
  async drain(): Promise<void> {
    while (this.queue.length || this.runningCount) await Promise.allSettled([...this.inFlight.values()]);
  }

  private remember(key: string, r: ExecutionRecord): void {
    const cap = this.opts.doneCacheSize ?? DONE_CACHE_SIZE;
    if (cap <= 0) return;
    this.done.set(key, r);
    for (const oldest of this.done.keys()) {
      if (this.done.size <= cap) break;
      this.done.delete(oldest);
    }
  }

  private cancelQueued(q: Queued): void {
    const i = this.queue.indexOf(q);
    if (i < 0) return; // running: runSandbox sees the same signal
    this.queue.splice(i, 1);
    q.reject(new SandboxCancelledError(`Job for task ${q.job.task.meta.id} was cancelled while queued.`));
  }

  private pump(): void {
    while (this.queue.length) {
      const head = this.queue[0]!;
      if (head.job.signal?.aborted) {
        this.cancelQueued(head);
        continue;
      }
      if (head.cpu > this.freeCpu || head.gpu > this.freeGpu) return;
      this.queue.shift();
      this.freeCpu -= head.cpu;
      this.freeGpu -= head.gpu;
      const gpuIds = this.freeGpuIds.splice(0, head.gpu);
      this.runningCount++;
      const { signal, ...job } = head.job;
      const env = gpuIds.length ? { CUDA_VISIBLE_DEVICES: gpuIds.join(",") } : undefined;
      runSandbox({
        ...job,
        signal,
        env,
        executor: this.opts.executor,
        workspace: this.opts.workspace,
        scorer: this.opts.scorer,
        jobsDir: this.opts.jobsDir,
        keyBackend: this.opts.keyBackend,
        onEvent: this.opts.onEvent,
      })
        .then(
          (r) => {
            // An infrastructure failure says nothing about the program: never replay it.
            if (r.errorType !== "sandbox_error") this.remember(head.key, r);
            head.resolve(r);
          },
          (e) => head.reject(e),
        )
        .finally(() => {
          this.freeCpu += head.cpu;
          this.freeGpu += head.gpu;
          this.freeGpuIds.push(...gpuIds);
          this.freeGpuIds.sort((a, b) => a - b);
          this.runningCount--;
          this.pump();
        });
    }
  }
}
