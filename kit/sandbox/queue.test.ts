// The Redis queue backend against a real redis-server and two real worker processes; one is
// killed with SIGKILL mid-job and the job must finish elsewhere, recorded exactly once. The workers
// are capped (--max-timeout 60 --max-memory 1024) and share the test's queue key with its clients.
import { spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Queue, QueueEvents } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, packageHash, type TaskPackage } from "../gym/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { probeBwrap } from "./local-executor.js";
import { jobSettled } from "./job-settled.js";
import { QueueAuthError, QueueJobRefusedError, QueueKeyError } from "./errors.js";
import { resolveQueueKey, signJob } from "./queue-auth.js";
import { CPU_QUEUE, SandboxQueueClient } from "./queue-client.js";
import { copyTask, hostPidsWith, TINY_TASK_DIR } from "./test-helpers.js";
import { startRedis, startWorker as startQueueWorker, WORKER_ENTRY, type WorkerProc } from "./queue-test-helpers.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const KEY_TEXT = "queue-test-key-".padEnd(64, "0");
const KEY = resolveQueueKey({ key: KEY_TEXT });
const connect = (url: string, opts: Parameters<typeof SandboxQueueClient.connect>[1] = {}) => SandboxQueueClient.connect(url, { key: KEY_TEXT, ...opts });
/** The worker's environment without any queue key of the caller's. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (!("OPENMLE_QUEUE_KEY" in extra)) delete env.OPENMLE_QUEUE_KEY;
  return env;
}
const why = spawnSync("redis-server", ["--version"]).error ? "redis-server is not installed (apt-get install redis-server)" : probeBwrap();
if (why) console.warn(`SKIP queue tests: ${why}`);

/** A worker of this file's tests: the fixture task, one slot, short lock and stalled intervals, capped. */
const startWorker = (id: string, redisUrl: string): WorkerProc =>
  startQueueWorker(id, redisUrl, KEY_TEXT, [
    "--task", TINY_TASK_DIR, "--cpus", "1", "--lock-ms", "2000", "--stalled-ms", "1000", "--max-timeout", "60", "--max-memory", "1024",
  ]);

describe.skipIf(!!why)("queue backend on Redis (BullMQ)", () => {
  let redis: ChildProcess;
  let redisUrl: string;
  let task: TaskPackage;
  let workers: WorkerProc[] = [];
  let dir: string;
  let ws: Workspace;
  beforeAll(async () => {
    ({ url: redisUrl, proc: redis } = await startRedis());
    task = await loadTask(TINY_TASK_DIR);
    dir = mkdtempSync(join(tmpdir(), "sbx-queue-"));
    ws = await openWorkspace(join(dir, "ws"));
    workers = [startWorker("A", redisUrl), startWorker("B", redisUrl)];
    await Promise.all(workers.map((w) => w.waitFor((e) => e.type === "ready", 60_000)));
  });
  afterAll(async () => {
    for (const w of workers) w.proc.kill("SIGKILL");
    redis?.kill("SIGKILL");
    ws?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a worker killed mid-job: the job is retried by the other and recorded exactly once", async () => {
    const client = await connect(redisUrl, { workspace: ws });
    const events = new QueueEvents(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle" });
    await events.waitUntilReady();
    const completed: string[] = [];
    events.on("completed", ({ jobId }) => completed.push(jobId));
    const token = `qtok${Date.now()}`;
    const code = [
      "import os, time, shutil",
      `open("marker.txt", "w").write("${token}")`,
      `os.system("/usr/bin/python3 -c 'import time; time.sleep(2.5)  # ${token}'")`,
      'shutil.copy(os.path.join(os.environ["DATA_DIR"], "sample_submission.csv"), "submission.csv")',
      'print("Final Validation Score: 0.5")',
    ].join("\n");
    try {
      const pending = client.submit({ task, code, limits: { timeoutS: 30, memoryMb: 512, cpus: 1 } });
      // 1. whichever worker takes the job first is killed mid-job
      const first = await Promise.race(workers.map((w) => w.waitFor((e) => e.type === "job-active").then(() => w)));
      await new Promise((r) => setTimeout(r, 700));
      first.proc.kill("SIGKILL");
      const other = workers.find((w) => w !== first)!;
      // 2. the other worker finds the stalled job and runs it to completion
      const record = await pending;
      expect(record.status).toBe("success");
      expect(record.testScore).not.toBeNull();
      expect(record.worker).toBe(other.id);
      await other.waitFor((e) => e.type === "job-completed");
      await new Promise((r) => setTimeout(r, 500));
      // 3. exactly once: one completion event, one stored row; the killed worker's sandbox is gone
      expect(completed).toEqual([record.idempotencyKey]);
      expect(await ws.query("SELECT count(*) AS n FROM executions WHERE idempotency_key = $k", { k: record.idempotencyKey })).toEqual([{ n: 1 }]);
      expect(hostPidsWith(token)).toEqual([]);
      // 4. submitting the same job again returns the stored record without running it
      const again = await client.submit({ task, code, limits: { timeoutS: 30, memoryMb: 512, cpus: 1 } });
      expect(again.executionId).toBe(record.executionId);
      expect(completed.length).toBe(1);
    } finally {
      await events.close();
      await client.close();
    }
  });

  it("refuses a job for a task it was not started with: a package path in the payload never loads", async () => {
    // A package whose metric.py would run code on import (on the host, as root, before issue 10).
    const marker = join(dir, "evil-metric-ran");
    const evil = copyTask(join(dir, "evil-task"), { "utils/metric.py": `open(${JSON.stringify(marker)}, "w").write("x")\n` });
    const queue = new Queue(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle" });
    const events = new QueueEvents(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle" });
    await events.waitUntilReady();
    try {
      const code = 'import os, shutil\nshutil.copy(os.path.join(os.environ["DATA_DIR"], "sample_submission.csv"), "submission.csv")\n';
      const limits = { timeoutS: 30, memoryMb: 512, cpus: 1, gpus: 0, diskMb: 1024 };
      // 1. untagged, as anyone with Redis access could push it: refused before anything else
      const forged = { taskRef: evil, taskId: "evil-task", taskHash: "0", code, limits, priority: 0 };
      const job = await queue.add("run", forged, { jobId: `forged-${Date.now()}`, attempts: 3 });
      await expect(jobSettled(queue, job.id!, events, 200)).rejects.toThrow(/^refused \(unauthenticated\): the job carries no valid tag/);
      // 2. tagged by a key holder, with a package path: a malformed job
      const id2 = `forged-path-${Date.now()}`;
      const job2 = await queue.add("run", { ...forged, tag: signJob(KEY, id2, forged) }, { jobId: id2, attempts: 3 });
      await expect(jobSettled(queue, job2.id!, events, 200)).rejects.toThrow(/^refused \(invalid-job\): the job is malformed \(job: Unrecognized key: "taskRef"/);
      // 3. tagged, naming a task the workers do not serve
      const data = { taskId: "evil-task", taskHash: "0", code, limits, priority: 0 };
      const id3 = `forged-task-${Date.now()}`;
      const job3 = await queue.add("run", { ...data, tag: signJob(KEY, id3, data) }, { jobId: id3, attempts: 3 });
      await expect(jobSettled(queue, job3.id!, events, 200)).rejects.toThrow(/^refused \(unknown-task\): worker [AB] does not run task "evil-task"/);
      expect(existsSync(marker)).toBe(false);
      expect((await queue.getJob(job3.id!))!.attemptsMade).toBe(1);
    } finally {
      await events.close();
      await queue.close();
    }
  });

  it("capped workers refuse a job over a cap with a typed error naming the limit and the cap, at once", async () => {
    const client = await connect(redisUrl, { workspace: ws });
    const count = async () => (await ws.query("SELECT count(*) AS n FROM executions"))[0];
    try {
      const before = await count();
      const t0 = Date.now();
      const err = await client.submit({ task, code: "print(1)\n", limits: { timeoutS: 2e6, memoryMb: 1e9, diskMb: 1e9, cpus: 1 } }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(QueueJobRefusedError);
      expect(err).toMatchObject({ reason: "over-cap", limit: "timeoutS" });
      expect((err as Error).message).toMatch(/^A worker refused queue job \w+: "the job asks for timeoutS=2000000 s, over this worker's cap of 60 s; ask for less, or start workers with a higher caps\.timeoutS"$/);
      const mem = await client.submit({ task, code: "print(1)\n", limits: { timeoutS: 30, memoryMb: 5000, cpus: 1 } }).catch((e: Error) => e);
      expect(mem).toMatchObject({ reason: "over-cap", limit: "memoryMb", message: expect.stringMatching(/memoryMb=5000 MiB, over this worker's cap of 1024 MiB/) });
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(await count()).toEqual(before);
    } finally {
      await client.close();
    }
  });

  it("a job tagged with another key is refused by the workers; a client or worker without a key refuses to start", async () => {
    const stranger = await SandboxQueueClient.connect(redisUrl, { key: "another-key-".padEnd(64, "1") });
    try {
      // The workers' refusal is sealed with their key, so this client cannot tell it from a forgery: after
      // replacing the job (SUBMIT_TRIES), it refuses the failure, naming the refusal and the likely cause.
      const err = await stranger.submit({ task, code: "print(2)\n", limits: { timeoutS: 30, memoryMb: 512, cpus: 1 } }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(QueueAuthError);
      expect((err as Error).message).toMatch(/a refusal no worker holding this client's key sealed \("refused \(unauthenticated\): .*client and workers have different keys/);
    } finally {
      await stranger.close();
    }
    await expect(SandboxQueueClient.connect(redisUrl, { env: {} })).rejects.toThrow(QueueKeyError);
    const r = spawnSync(process.execPath, ["--import", "tsx", WORKER_ENTRY, "worker", "--redis", redisUrl, "--task", TINY_TASK_DIR], { cwd: ROOT, env: envWith({}), encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^openmle: The Redis queue needs a shared key and OPENMLE_QUEUE_KEY gives none\. Generate one with `openssl rand -hex 32`.* pass the --queue-key-file option\.\n$/);
  });

  it("a job that finishes while no events are read still settles: the wait polls its state", async () => {
    // autorun off: this QueueEvents never reads the stream, as one that has not issued its first read yet.
    const queue = new Queue(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle" });
    const deaf = new QueueEvents(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle", autorun: false });
    try {
      const data = { taskId: task.meta.id, taskHash: packageHash(task.dir), code: 'print("Final Validation Score: 0.25")\n', limits: { timeoutS: 30, memoryMb: 512, cpus: 1, gpus: 0, diskMb: 1024 }, priority: 0 };
      const jobId = `poll-${Date.now()}`;
      const job = await queue.add("run", { ...data, tag: signJob(KEY, jobId, data) }, { jobId });
      const { record } = await jobSettled<{ record: { status: string; validScore: number } }>(queue, job.id!, deaf, 200);
      expect(record.status).toBe("missing_submission");
      expect(record.validScore).toBe(0.25);
      expect(deaf.listenerCount(`completed:${job.id}`)).toBe(0);
    } finally {
      await deaf.close();
      await queue.close();
    }
  });

  it("a wait ends with an error when its queue is closed, instead of polling on", async () => {
    const owner = new Queue(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle" });
    const waiter = new Queue(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle" });
    const events = new QueueEvents(CPU_QUEUE, { connection: { url: redisUrl }, prefix: "openmle" });
    const job = await owner.add("run", { taskId: "none" }, { jobId: `later-${Date.now()}`, delay: 60_000 });
    try {
      // The rejection can come while close() is awaited, so the expectation is attached first.
      const wait = expect(jobSettled(waiter, job.id!, events, 100)).rejects.toThrow(/the queue was closed while waiting/);
      await new Promise((r) => setTimeout(r, 300));
      await waiter.close();
      await wait;
    } finally {
      await job.remove();
      await Promise.all([owner.close(), events.close()]);
    }
  });

  it("refuses a package whose content differs from the worker's (same task id): no record of one served for the other", async () => {
    const other = await loadTask(copyTask(join(dir, "other", "tiny-task"), { "data/private/test_answer.csv": "id,label\n60,1\n" }, task.meta));
    expect(other.meta.id).toBe(task.meta.id);
    const client = await connect(redisUrl);
    try {
      await expect(client.submit({ task: other, code: "print(1)\n", limits: { timeoutS: 30, memoryMb: 512, cpus: 1 } })).rejects.toThrow(/the packages differ/);
    } finally {
      await client.close();
    }
  });

  it("clients without a workspace share one job per idempotency key", async () => {
    const [c1, c2] = await Promise.all([connect(redisUrl), connect(redisUrl)]);
    try {
      const job = { task, code: 'import time\ntime.sleep(0.5)\nprint("Final Validation Score: 1")\n', limits: { timeoutS: 30, memoryMb: 512, cpus: 1 } };
      const [a, b] = await Promise.all([c1.submit(job), c2.submit(job)]);
      expect(a.status).toBe("missing_submission");
      expect(b.executionId).toBe(a.executionId);
    } finally {
      await c1.close();
      await c2.close();
    }
  });
});
