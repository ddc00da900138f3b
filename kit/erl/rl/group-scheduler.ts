import type { GroupResult } from "./rollout-group.js";

/** What the scheduler drives: the trainer's version, and starting and consuming groups. */
export interface GroupSource {
  /** Updates made so far (the trainer's policy version). */
  readonly version: number;
  /** Plans one group with the current params and starts generating and executing it. */
  start(): { readonly groupId: string; readonly done: Promise<GroupResult> };
  /** One update from a batch of completed groups and the groups dropped since the last update. */
  consume(batch: GroupResult[], dropped: GroupResult[]): Promise<void>;
  /** A group lagging more than `maxLag` versions: dropped (not re-weighted), its task sampled again. */
  dropped(group: GroupResult, lag: number): void;
}

export interface ScheduleOptions {
  readonly mode: "sync" | "async";
  /** Updates to reach. */
  readonly steps: number;
  /** Completed groups per update. */
  readonly batchSize: number;
  /** Async: most groups generating/executing at once. */
  readonly inFlight: number;
  /** Async: most versions a group may lag behind the trainer. */
  readonly maxLag: number;
  readonly signal?: AbortSignal;
  /** Async: stops the groups still running once the last update is made. */
  readonly abort: () => void;
}

/**
 * Steps 2–4 of trainRL, until `steps` updates are made or `signal` aborts. sync: each update samples
 * its whole batch from the current params and waits for all of it. async: up to `inFlight` groups
 * run at once, each sampled from the params current when it starts; the trainer updates as soon as a
 * batch of completed groups is queued, and a group lagging more than `maxLag` versions is dropped.
 */
export async function scheduleGroups(src: GroupSource, o: ScheduleOptions): Promise<void> {
  if (o.mode === "sync") {
    while (src.version < o.steps && !o.signal?.aborted) {
      const batch = await Promise.all(Array.from({ length: o.batchSize }, () => src.start().done));
      await src.consume(batch, []);
    }
    return;
  }
  const running = new Map<string, Promise<GroupResult>>();
  const queue: GroupResult[] = [];
  let dropped: GroupResult[] = [];
  while (src.version < o.steps && !o.signal?.aborted) {
    // Never more in flight than the remaining steps can consume (no wasted groups at the end).
    while (running.size < Math.min(o.inFlight, (o.steps - src.version) * o.batchSize - queue.length)) {
      const { groupId, done } = src.start();
      // A failure surfaces through Promise.race; groups still running after it must not crash the process.
      done.catch(() => {});
      running.set(groupId, done);
    }
    const done = await Promise.race(running.values());
    running.delete(done.groupId);
    const lag = src.version - done.version;
    if (lag > o.maxLag) {
      dropped.push(done);
      src.dropped(done, lag);
    } else queue.push(done);
    if (queue.length >= o.batchSize) {
      await src.consume(queue.splice(0, o.batchSize), dropped);
      dropped = [];
    }
  }
  o.abort();
  await Promise.allSettled(running.values());
}
