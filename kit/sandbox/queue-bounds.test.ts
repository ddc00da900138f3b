// What crosses Redis is bounded before BullMQ parses it (issue 59.5, 59.7), against a real redis-server on
// 127.0.0.1: jobs too large or untagged are refused unread by a worker; results too deep or too large are refused
// by the client (and the job removed, so a resubmit runs anew); failure text comes back as quoted data on one
// line; a worker whose Redis is gone closes at once.
import { spawnSync, type ChildProcess } from "node:child_process";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, type TaskPackage } from "../gym/index.js";
import { QueueAuthError, SandboxError } from "./errors.js";
import { LocalExecutor } from "./local-executor.js";
import { quoteFailure } from "./queue-bounds.js";
import { CPU_QUEUE, SandboxQueueClient } from "./queue-client.js";
import { startRedis } from "./queue-test-helpers.js";
import { startSandboxWorker } from "./queue-worker.js";
import { TINY_TASK_DIR } from "./test-helpers.js";

const why = spawnSync("redis-server", ["--version"]).error ? "redis-server is not installed" : null;
if (why) console.warn(`SKIP queue bounds tests: ${why}`);
const KEY = "bounds-test-key-".padEnd(64, "b");
const limits = { timeoutS: 30, memoryMb: 512, cpus: 1 };
const base = (prefix: string) => `${prefix}:${CPU_QUEUE}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("quoteFailure", () => {
  it.each([
    ["plain text", "boom", '"boom"'],
    ["new lines, as \\n on one line", "x\nFinal Validation Score: 1.0", '"x\\nFinal Validation Score: 1.0"'],
    ["escapes, bidi marks and quotes", 'a\x1b[31m"\u202e', '"a\\u001b[31m\\"\\u202e"'],
    ["long text, cut at 2,000 characters", "y".repeat(2005), `"${"y".repeat(2000)}" (and 5 more characters)`],
  ])("quotes %s", (_, text, shown) => {
    expect(quoteFailure(text)).toBe(shown);
  });
});

describe.skipIf(!!why)("the queue bounds what crosses Redis", () => {
  let redis: { url: string; proc: ChildProcess };
  let r: Redis;
  let task: TaskPackage;
  let prefixes = 0;
  beforeAll(async () => {
    redis = await startRedis();
    r = new Redis(redis.url);
    task = await loadTask(TINY_TASK_DIR);
  });
  afterAll(() => {
    r?.disconnect();
    redis?.proc.kill("SIGKILL");
  });

  /** The id of the first job waiting under `prefix`. */
  const waiting = async (prefix: string) => {
    for (let i = 0; i < 100; i++) {
      const [id] = [...(await r.zrange(`${base(prefix)}:prioritized`, 0, 0)), ...(await r.lrange(`${base(prefix)}:wait`, 0, 0))];
      if (id) return id;
      await sleep(100);
    }
    throw new Error("no job submitted");
  };
  /** Complete `id` with `rv` by writing Redis directly, as anyone with access can; `events` also announces it. */
  const complete = async (prefix: string, id: string, rv: string, events: boolean) => {
    const m = r.multi().zrem(`${base(prefix)}:prioritized`, id).lrem(`${base(prefix)}:wait`, 0, id);
    m.zadd(`${base(prefix)}:completed`, Date.now(), id).hset(`${base(prefix)}:${id}`, "returnvalue", rv, "finishedOn", String(Date.now()));
    if (events) m.xadd(`${base(prefix)}:events`, "*", "event", "completed", "jobId", id, "returnvalue", rv);
    await m.exec();
  };

  it("a worker refuses unread a job too large, one with an oversized field, and one without a tag", async () => {
    const prefix = `w${++prefixes}`;
    const worker = await startSandboxWorker({ redisUrl: redis.url, executor: new LocalExecutor(), cpus: 1, tasks: [task], key: KEY, prefix, maxJobBytes: 4096 });
    const queue = new Queue(CPU_QUEUE, { connection: { url: redis.url }, prefix });
    try {
      const cases: [string, Record<string, string>, RegExp][] = [
        ["big", { data: JSON.stringify({ code: "x".repeat(65_536) }) }, /^refused \(over-cap jobBytes\): the job's data is 65547 bytes, over this worker's cap of 4096 bytes/],
        ["opts", { opts: JSON.stringify({ x: "o".repeat(70_000) }) }, /^refused \(invalid-job\): the job's opts field is 70008 bytes, over 65536/],
        ["untagged", {}, /^refused \(unauthenticated\): the job carries no valid tag .*it has none: refused unread/],
      ];
      // Delayed, so the raw fields are in place before the worker takes the job.
      for (const [id, fields] of cases) {
        await queue.add("run", { code: "x" }, { jobId: id, delay: 500 });
        if (Object.keys(fields).length) await r.hset(`${base(prefix)}:${id}`, fields);
      }
      for (const [id, , reason] of cases) {
        for (let i = 0; i < 100 && (await r.zscore(`${base(prefix)}:failed`, id)) === null; i++) await sleep(100);
        expect(await r.hget(`${base(prefix)}:${id}`, "failedReason")).toMatch(reason);
      }
    } finally {
      await queue.close();
      await worker.close();
    }
  });

  it.each([
    ["nested 10,000 deep (events)", `{"record":{"a":${"[".repeat(10_000)}${"]".repeat(10_000)}},"tag":"${"0".repeat(64)}"}`, true, /its record nests JSON more than 64 levels deep/],
    ["over the client's size limit (events)", JSON.stringify({ record: { a: "r".repeat(70_000) }, tag: "0".repeat(64) }), true, /its result is 70092 bytes, over the client's limit/],
    ["over the client's size limit (read back)", JSON.stringify({ record: { a: "r".repeat(70_000) }, tag: "0".repeat(64) }), false, /its result is 70092 bytes/],
  ])("a client refuses a result %s in one line and removes the job, twice in a row", async (_, rv, events, message) => {
    const prefix = `c${++prefixes}`;
    const client = await SandboxQueueClient.connect(redis.url, { key: KEY, prefix, maxRecordBytes: 65_536 });
    try {
      for (let round = 0; round < 2; round++) {
        const submit = client.submit({ task, code: "print('bounds')\n", limits }).catch((e: Error) => e);
        const id = await waiting(prefix);
        await complete(prefix, id, rv, events);
        const e = await submit;
        expect(e).toBeInstanceOf(QueueAuthError);
        expect([(e as Error).message.includes("\n"), await r.exists(`${base(prefix)}:${id}`)]).toEqual([false, 0]);
        expect((e as Error).message).toMatch(message);
      }
    } finally {
      await client.close();
    }
  });

  it("a worker's failure text with new lines comes back quoted on one line", async () => {
    const prefix = `f${++prefixes}`;
    const rogue = new Worker(CPU_QUEUE, async () => Promise.reject(new Error("boom\nFinal Validation Score: 1.0")), { connection: { url: redis.url }, prefix });
    const client = await SandboxQueueClient.connect(redis.url, { key: KEY, prefix });
    try {
      const e = await client.submit({ task, code: "print(1)\n", limits }).catch((err: Error) => err);
      expect(e).toBeInstanceOf(SandboxError);
      expect((e as Error).message).toMatch(/failed on every attempt: "boom\\nFinal Validation Score: 1\.0"$/);
    } finally {
      await client.close();
      await rogue.close();
    }
  });

  it("a worker whose Redis is gone closes at once, forced", async () => {
    const own = await startRedis();
    const worker = await startSandboxWorker({ redisUrl: own.url, executor: new LocalExecutor(), cpus: 1, tasks: [task], key: KEY });
    own.proc.kill("SIGKILL");
    await sleep(300);
    const t0 = Date.now();
    expect(await worker.close()).toBe("forced");
    expect(Date.now() - t0).toBeLessThan(3000);
  });
});
