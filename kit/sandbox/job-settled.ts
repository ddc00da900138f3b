import type { EventEmitter } from "node:events";
import type { Queue, QueueEvents } from "bullmq";

/**
 * Waits for a BullMQ job to complete or fail for good, by its queue events and by polling its
 * state. Events alone can miss a job that finishes while a fresh QueueEvents has not yet issued
 * its first blocking read (it starts reading at "$", after the client is ready and named), and
 * BullMQ's waitUntilFinished then waits forever; the poll (every `pollMs`) ends that wait.
 * Resolves with the job's return value; rejects with its failed reason, or when the queue closes.
 */
export function jobSettled<T = unknown>(queue: Queue, jobId: string, events: QueueEvents, pollMs = 2000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Per-job event names ("completed:<id>") are emitted by QueueEvents but not in its typed listener map.
    const bus = events as unknown as EventEmitter;
    const completed = `completed:${jobId}`;
    const failed = `failed:${jobId}`;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
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
        }
      } catch {
        // A lost connection while polling: the events path, or the next poll, may still answer.
      }
      if (!done) timer = setTimeout(() => void poll(), pollMs);
    };
    void poll();
  });
}
