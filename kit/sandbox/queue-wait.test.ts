// A queue wait that cannot end on its own ends in one typed line (issue 59 review, pause-queue): the rules on a fake
// queue and clock, then against a real redis-server: a paused queue, a queue no worker listens on, a job past its
// deadline, and a worker that finds its queue paused.
import { spawnSync, type ChildProcess } from "node:child_process";
import { Queue, Worker, type Queue as BullQueue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, type TaskPackage } from "../gym/index.js";
import { QueueWaitError, SandboxConfigError } from "./errors.js";
import { LocalExecutor } from "./local-executor.js";
import { CPU_QUEUE, SandboxQueueClient } from "./queue-client.js";
import { startRedis } from "./queue-test-helpers.js";
import { QueueWaitConfig, QueueWatch } from "./queue-wait.js";
import { startSandboxWorker, type WorkerEvent } from "./queue-worker.js";
import { TINY_TASK_DIR } from "./test-helpers.js";

const why = spawnSync("redis-server", ["--version"]).error ? "redis-server is not installed" : null;
if (why) console.warn(`SKIP queue wait tests: ${why}`);
const KEY = "wait-test-key-".padEnd(64, "w");
const limits = { timeoutS: 30, memoryMb: 512, cpus: 1 };

describe("QueueWatch", () => {
  /** A queue whose pause flag and worker count the test sets, and a clock it moves. */
  const fake = () => {
    const s = { paused: false, workers: 1 as number | Error, t: 0 };
    const queue = {
      name: CPU_QUEUE,
      qualifiedName: `openmle:${CPU_QUEUE}`,
      isPaused: async () => s.paused,
      getWorkers: async () => (s.workers instanceof Error ? Promise.reject(s.workers) : Array(s.workers).fill({})),
    } as unknown as BullQueue;
    const watch = new QueueWatch(QueueWaitConfig.parse({ pausedS: 5, noWorkerS: 60, pollMs: 2000 }), () => s.t);
    return { s, queue, stuck: (state = "waiting") => watch.stuck(queue, "j1", state) };
  };

  it("says nothing while the queue is served, or paused for less than pausedS", async () => {
    const { s, stuck } = fake();
    expect(await stuck()).toBeNull();
    s.paused = true;
    for (s.t = 2000; s.t < 5000; s.t += 2000) expect(await stuck()).toBeNull();
  });

  it("a queue paused for pausedS ends a waiting job's wait, not a running one's", async () => {
    const { s, stuck } = fake();
    s.paused = true;
    expect(await stuck()).toBeNull();
    for (s.t = 2000; s.t <= 6000; s.t += 2000) await stuck("active");
    expect(await stuck("active")).toBeNull();
    const e = await stuck("waiting");
    expect(e).toBeInstanceOf(QueueWaitError);
    expect(e).toMatchObject({ reason: "paused", jobId: "j1" });
    expect(e!.message).toMatch(/^Queue openmle-sandbox is paused, .*HDEL openmle:openmle-sandbox:meta paused/);
  });

  it("no worker for noWorkerS ends the wait; a worker seen meanwhile, or after a gap, starts the clock again", async () => {
    const { s, stuck } = fake();
    s.workers = 0;
    expect(await stuck()).toBeNull();
    for (s.t = 2000; s.t < 40_000; s.t += 2000) expect(await stuck()).toBeNull();
    s.workers = 1;
    expect(await stuck()).toBeNull();
    s.workers = 0;
    for (s.t += 2000; s.t < 98_000; s.t += 2000) expect(await stuck()).toBeNull();
    s.t += 600_000; // nobody waited for ten minutes: what happened meanwhile is unknown
    const since = s.t;
    expect(await stuck()).toBeNull();
    for (s.t += 2000; s.t < since + 60_000; s.t += 2000) expect(await stuck()).toBeNull();
    expect(await stuck("active")).toMatchObject({ reason: "no-worker", message: expect.stringMatching(/^No worker has listened on queue openmle-sandbox for 60 s/) });
  });

  it("a Redis user without CLIENT LIST leaves the workers unknown, never none", async () => {
    const { s, stuck } = fake();
    s.workers = new Error("NOPERM");
    for (; s.t < 600_000; s.t += 2000) expect(await stuck()).toBeNull();
  });
});

describe.skipIf(!!why)("queue waits against Redis", () => {
  let redis: { url: string; proc: ChildProcess };
  let task: TaskPackage;
  let prefixes = 0;
  beforeAll(async () => {
    redis = await startRedis();
    task = await loadTask(TINY_TASK_DIR);
  });
  afterAll(() => redis?.proc.kill("SIGKILL"));
  const fast = { pausedS: 0.5, noWorkerS: 0.5, pollMs: 200 };

  it("a paused queue: the client says so in one line, and the worker warns", async () => {
    const prefix = `p${++prefixes}`;
    const q = new Queue(CPU_QUEUE, { connection: { url: redis.url }, prefix });
    await q.pause();
    const events: WorkerEvent[] = [];
    const worker = await startSandboxWorker({ redisUrl: redis.url, executor: new LocalExecutor(), cpus: 1, tasks: [task], key: KEY, prefix, onEvent: (e) => events.push(e) });
    const client = await SandboxQueueClient.connect(redis.url, { key: KEY, prefix, ...fast });
    try {
      const t0 = Date.now();
      const e = await client.submit({ task, code: "print('paused')\n", limits }).catch((err: Error) => err);
      expect(e).toMatchObject({ name: "QueueWaitError", reason: "paused" });
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(events).toContainEqual(expect.objectContaining({ type: "warning", message: expect.stringMatching(/^queue openmle-sandbox is paused/) }));
    } finally {
      await client.close();
      await worker.close({ force: true });
      await q.close();
    }
  });

  it("no worker on the queue: the client says so in one line", async () => {
    const client = await SandboxQueueClient.connect(redis.url, { key: KEY, prefix: `n${++prefixes}`, ...fast });
    try {
      const e = await client.submit({ task, code: "print('nobody')\n", limits }).catch((err: Error) => err);
      expect(e).toMatchObject({ name: "QueueWaitError", reason: "no-worker", message: expect.stringMatching(/start one \(openmle worker/) });
    } finally {
      await client.close();
    }
  });

  it("a job without a result past its timeout plus queueWaitS: the wait ends, the job stays queued", async () => {
    const prefix = `d${++prefixes}`;
    const stuck = new Worker(CPU_QUEUE, () => new Promise(() => undefined), { connection: { url: redis.url }, prefix });
    const client = await SandboxQueueClient.connect(redis.url, { key: KEY, prefix, ...fast, queueWaitS: 0.5 });
    try {
      const t0 = Date.now();
      const e = await client.submit({ task, code: "print('late')\n", limits: { ...limits, timeoutS: 0.5 } }).catch((err: Error) => err);
      expect(e).toMatchObject({ name: "QueueWaitError", reason: "deadline" });
      expect((e as Error).message).toMatch(/has no result 1 s after it was submitted \(its timeoutS 0\.5 plus the client's queueWaitS 0\.5\)/);
      expect(Date.now() - t0).toBeLessThan(3000);
    } finally {
      await client.close();
      await stuck.close(true);
    }
  });

  it("wait options are checked at connect", async () => {
    await expect(SandboxQueueClient.connect(redis.url, { key: KEY, queueWaitS: -1 })).rejects.toThrow(SandboxConfigError);
  });
});
