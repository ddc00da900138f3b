import type { EventEmitter } from "node:events";
import type { Queue, QueueEvents } from "bullmq";

export interface SettleOptions {
  /** Milliseconds between polls of the job's state (default 2000). */
  readonly pollMs?: number;
  /** End the wait with `error()` once `ms` have passed (default: no deadline). */
  readonly deadline?: { readonly ms: number; readonly error: () => Error };
  /** Asked at each poll that finds the job unfinished, with its state: an Error ends the wait with it. */
  readonly stuck?: (state: string) => Promise<Error | null>;
}

/**
 * Waits for a BullMQ job to complete or fail for good, by its queue events and by polling its
 * state. Events alone can miss a job that finishes while a fresh QueueEvents has not yet issued
 * its first blocking read (it starts reading at "$", after the client is ready and named), and
 * BullMQ's waitUntilFinished then waits forever; the poll (every `pollMs`) ends that wait.
 * Resolves with the job's return value; rejects with its failed reason, when the queue closes, at the deadline, or
 * with what `stuck` finds (a paused queue, no workers: queue-wait.ts).
 */
export function jobSettled<T = unknown>(
  queue: Queue,
  jobId: string,
  events: QueueEvents,
  opts: number | SettleOptions = {},
): Promise<T> {
  const { pollMs = 2000, deadline, stuck }: SettleOptions = typeof opts === "number" ? { pollMs: opts } : opts;
  return new Promise<T>((resolve, reject) => {
    // Per-job event names ("completed:<id>") are emitted by QueueEvents but not in its typed listener map.
    const bus = events as unknown as EventEmitter;
    const completed = `completed:${jobId}`;
    const failed = `failed:${jobId}`;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    // Its own timer: a poll can hang while Redis is unreachable (commands queue until it is back).
    const late = deadline && setTimeout(() => finish(() => reject(deadline.error())), deadline.ms);
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(late);
      bus.off(completed, onCompleted);
      bus.off(failed, onFailed);
      settle();
    };
    const onCompleted = (args: { returnvalue: unknown }) => finish(() => resolve(args.returnvalue as T));
    const onFailed = (args: { failedReason: string }) => finish(() => reject(new Error(args.failedReason)));
    bus.on(completed, onCompleted);
    bus.on(failed, onFailed);
    const poll = async () => {
      // BullMQ's Queue has no close event; its `closing` promise is set once close() is called.
      if (queue.closing) return finish(() => reject(new Error(`the queue was closed while waiting for job ${jobId}`)));
      try {
        const state = await queue.getJobState(jobId);
        if (state === "completed" || state === "failed") {
          const job = await queue.getJob(jobId);
          if (!job)
            return finish(() =>
              reject(new Error(`job ${jobId} was removed from the queue before its result was read`)),
            );
          if (state === "completed") finish(() => resolve(job.returnvalue as T));
          else finish(() => reject(new Error(job.failedReason)));
        } else if (state === "unknown") {
          return finish(() => reject(new Error(`job ${jobId} is not in the queue (removed, or Redis was flushed)`)));
        } else {
          const why = stuck && !done ? await stuck(state) : null;
          if (why) return finish(() => reject(why));
        }
      } catch {
        // A lost connection while polling: the events path, or the next poll, may still answer.
      }
      if (!done) timer = setTimeout(() => void poll(), pollMs);
    };
    void poll();
  });
}
