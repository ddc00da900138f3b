// Attempts on what crosses Redis before any tag is checked (issue 59 points 5 and 7): a record nested
// thousands of levels deep, an untagged 200 MB job, a key file that never ends, failure text that forges
// the kit's own lines, and a worker told to stop after its Redis went away. Anyone who can write to Redis
// can do each (no queue key needed). The worker-process attempts start their own redis-server.
import { spawn, spawnSync } from "node:child_process";
import { constants as osConstants } from "node:os";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { CPU_QUEUE, QueueAuthError, SandboxQueueClient } from "../../../kit/sandbox/index.js";
import { startRedis, startWorker } from "../../../kit/sandbox/queue-test-helpers.js";
import { TINY_TASK_DIR } from "../../../kit/sandbox/test-helpers.js";
import type { Attempt, AttemptContext, Outcome } from "../attempt.js";

const ROOT = new URL("../../..", import.meta.url).pathname;
const KEY = "bench-queue-bounds-key-".padEnd(64, "b");
const limits = { timeoutS: 30, memoryMb: 512, cpus: 1, gpus: 0, diskMb: 1024 };
const MiB = 1024 * 1024;
/** Lines the kit prints itself (sandbox run's record, a program's score line). */
const FORGED = /^(Final Validation Score|status\s+success)/m;
/** A Node stack frame. */
const STACK = /^\s+at .+\(.*\)$|^\s+at \S+:\d+:\d+$/m;
let prefixes = 0;

const short = (s: string) => s.replace(/\s+/g, " ").slice(0, 110);

/** The queue's Redis keys under `prefix` (BullMQ's layout). */
const keys = (prefix: string) => {
  const base = `${prefix}:${CPU_QUEUE}`;
  return { base, wait: `${base}:wait`, prio: `${base}:prioritized`, done: `${base}:completed`, events: `${base}:events` };
};

/** The id of the first job waiting on `prefix` (a client's submit), within 20 s. */
async function waitingJob(r: Redis, prefix: string): Promise<string> {
  const k = keys(prefix);
  for (let i = 0; i < 200; i++) {
    const [id] = [...(await r.zrange(k.prio, 0, 0)), ...(await r.lrange(k.wait, 0, 0))];
    if (id) return id;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error("no job was submitted in 20 s");
}

/** Complete `jobId` with `returnvalue` (JSON text) by writing Redis directly, as any Redis user can. */
async function completeRaw(r: Redis, prefix: string, jobId: string, returnvalue: string): Promise<void> {
  const k = keys(prefix);
  await r
    .multi()
    .zrem(k.prio, jobId)
    .lrem(k.wait, 0, jobId)
    .zadd(k.done, Date.now(), jobId)
    .hset(`${k.base}:${jobId}`, "returnvalue", returnvalue, "finishedOn", String(Date.now()))
    .xadd(k.events, "*", "event", "completed", "jobId", jobId, "returnvalue", returnvalue)
    .exec();
}

/**
 * The real `openmle <args>` with the bench key, in a child process (its terminal output as a person sees it);
 * asynchronous, so a rogue worker in this process keeps answering meanwhile. `dataCap` bounds its heap.
 */
function openmle(args: string[], timeoutMs: number, extra: { dataCap?: number } = {}) {
  const node = [process.execPath, "--import", "tsx", "kit/cli/main.ts", ...args];
  const cmd = extra.dataCap ? ["prlimit", `--data=${extra.dataCap}`, "--", ...node] : node;
  const child = spawn(cmd[0]!, cmd.slice(1), { cwd: ROOT, env: { ...process.env, OPENMLE_QUEUE_KEY: KEY } });
  let out = "";
  let err = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr.on("data", (b: Buffer) => (err += b.toString()));
  return new Promise<{ code: number | null; out: string; err: string; timedOut: boolean }>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 + osConstants.signals[signal] : null), out, err, timedOut: signal === "SIGKILL" });
    });
  });
}

/** A peak and a current figure of /proc/<pid>/status, in MiB. */
function memMiB(pid: number, field: "VmHWM" | "VmRSS"): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function withOwnRedis(fn: (url: string) => Promise<Outcome>): Promise<Outcome> {
  const redis = await startRedis();
  try {
    return await fn(redis.url);
  } finally {
    redis.proc.kill("SIGKILL");
  }
}

export const attempts: Attempt[] = [
  {
    id: "deep-record",
    source: "issue 59.5",
    what: "a record nested 10,000 arrays deep written into Redis as the job's result (no key), submitted twice",
    perExecutor: false,
    async run(ctx: AttemptContext) {
      if (!ctx.redisUrl) return { held: true, detail: "skipped: no redis-server" };
      const prefix = `bounds${++prefixes}-${process.pid}`;
      const r = new Redis(ctx.redisUrl);
      const client = await SandboxQueueClient.connect(ctx.redisUrl, { key: KEY, prefix });
      const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
      const seen: string[] = [];
      let held = true;
      let jobId = "";
      try {
        for (let round = 1; round <= 2; round++) {
          const submit = client.submit({ task: ctx.task, code: "print('deep')\n", limits }).then(
            () => ({ ok: false, why: "accepted" }),
            (e: Error) => ({
              ok: e instanceof QueueAuthError && !e.message.includes("\n"),
              why: `${e.name}: ${e.message.replace(/^Refused the result of queue job \w+: /, "")}`,
            }),
          );
          // The second submit of the same job may settle at once from what the first left in Redis.
          const first = await Promise.race([waitingJob(r, prefix), submit]);
          jobId = typeof first === "string" ? first : jobId;
          const rv = `{"record":{"idempotencyKey":${JSON.stringify(jobId)},"artifacts":${deep}},"tag":"${"0".repeat(64)}"}`;
          if (typeof first === "string") await completeRaw(r, prefix, first, rv);
          const out = await submit;
          const left = await r.exists(`${keys(prefix).base}:${jobId}`);
          held &&= out.ok && left === 0;
          seen.push(`#${round} ${short(out.why).slice(0, 80)}${left ? " (job kept)" : " (job removed)"}`);
        }
      } finally {
        await client.close();
        r.disconnect();
      }
      return { held, detail: seen.join("; ") };
    },
  },
  {
    id: "untagged-200mb-job",
    source: "issue 59.5",
    what: "an untagged job of 200 MB pushed into BullMQ: the worker's peak memory and how it ends",
    perExecutor: false,
    run: () =>
      withOwnRedis(async (url) => {
        const w = startWorker("bounds-big", url, KEY, ["--task", TINY_TASK_DIR, "--cpus", "1"]);
        const r = new Redis(url);
        const queue = new Queue(CPU_QUEUE, { connection: { url }, prefix: "openmle" });
        try {
          await w.waitFor((e) => e.type === "ready", 120_000);
          const before = memMiB(w.proc.pid!, "VmRSS");
          const size = 200 * MiB;
          const big = Buffer.alloc(size, "a");
          big.write('{"code":"', 0);
          big.write('"}', size - 2);
          // Delayed, so the payload is in place before the worker takes the job.
          await queue.add("run", { code: "x" }, { jobId: "big", delay: 1500 });
          await r.hset(`${keys("openmle").base}:big`, "data", big);
          let state = "";
          for (let i = 0; i < 600 && !["failed", "completed"].includes(state); i++) {
            await new Promise((res) => setTimeout(res, 100));
            state = (await r.zscore(`${keys("openmle").base}:failed`, "big")) !== null ? "failed" : state;
            state = (await r.zscore(`${keys("openmle").base}:completed`, "big")) !== null ? "completed" : state;
          }
          const peak = memMiB(w.proc.pid!, "VmHWM");
          const reason = (await r.hget(`${keys("openmle").base}:big`, "failedReason")) ?? state;
          const growth = peak - before;
          // Receiving Redis's reply costs about three times the payload (ioredis gathers the reply's chunks, joins
          // them, then makes a string of them); parsing and hashing it cost as much again (7 times on the code before).
          const held = state === "failed" && reason.startsWith("refused") && growth < 3.5 * (size / MiB);
          return {
            held,
            detail: `${state || "still waiting after 60 s"}: ${short(reason).slice(0, 60)}; worker peak +${growth.toFixed(0)} MiB`,
          };
        } finally {
          await queue.close();
          r.disconnect();
          w.proc.kill("SIGKILL");
        }
      }),
  },
  {
    id: "key-file-unbounded",
    source: "issue 59.5",
    what: "`openmle worker --queue-key-file` /dev/zero and a FIFO nobody writes (data segment capped at 2 GiB)",
    perExecutor: false,
    async run(ctx: AttemptContext) {
      const fifo = join(ctx.dir, "key-fifo");
      spawnSync("mkfifo", [fifo]);
      const rows: string[] = [];
      let held = true;
      for (const file of ["/dev/zero", fifo]) {
        const args = ["worker", "--redis", "redis://127.0.0.1:1", "--task", TINY_TASK_DIR, "--queue-key-file", file];
        const t = Date.now();
        const r = await openmle(args, 20_000, { dataCap: 2 * 1024 * MiB });
        const s = ((Date.now() - t) / 1000).toFixed(1);
        const ok = !r.timedOut && r.code === 1 && r.err.trim().split("\n").length === 1 && !STACK.test(r.err);
        held &&= ok;
        rows.push(`${file === fifo ? "FIFO" : file}: ${r.timedOut ? "hung (killed at 20 s)" : `exit ${r.code} in ${s} s, ${short(r.err).slice(0, 60)}`}`);
      }
      return { held, detail: rows.join("; ") };
    },
  },
  {
    id: "failure-text-forges-lines",
    source: "issue 59.7",
    what: "a rogue worker fails `sandbox run --backend queue` jobs with text holding 'Final Validation Score'/'status success' lines",
    perExecutor: false,
    async run(ctx: AttemptContext) {
      const code = join(ctx.dir, "bounds-main.py");
      writeFileSync(code, "print('hello')\n");
      const evil = [
        "boom\nFinal Validation Score: 1.0\nstatus      success",
        "refused (over-cap memoryMb): x\nFinal Validation Score: 1.0\nstatus      success",
      ];
      const rows: string[] = [];
      let held = true;
      for (const text of evil)
        await withOwnRedis(async (url) => {
          const rogue = new Worker(CPU_QUEUE, async () => Promise.reject(new Error(text)), { connection: { url }, prefix: "openmle" });
          try {
            const r = await openmle(["sandbox", "run", "--backend", "queue", "--redis", url, "--task", TINY_TASK_DIR, "--code", code], 120_000);
            const all = `${r.out}\n${r.err}`;
            const ok = !FORGED.test(all) && r.code === 1 && r.err.trim().split("\n").length === 1;
            held &&= ok;
            rows.push(ok ? `one line: ${short(r.err).slice(0, 70)}` : `forged: ${JSON.stringify(all.trim().slice(0, 120))}`);
          } finally {
            await rogue.close();
          }
          return { held, detail: "" };
        });
      return { held, detail: rows.join("; ") };
    },
  },
  {
    id: "worker-sigterm-redis-gone",
    source: "issue 59.7",
    what: "SIGTERM to `openmle worker` after its redis-server was killed",
    perExecutor: false,
    async run() {
      const redis = await startRedis();
      const w = startWorker("bounds-term", redis.url, KEY, ["--task", TINY_TASK_DIR, "--cpus", "1"]);
      try {
        await w.waitFor((e) => e.type === "ready", 120_000);
        redis.proc.kill("SIGKILL");
        await new Promise((res) => setTimeout(res, 1000));
        const t = Date.now();
        w.proc.kill("SIGTERM");
        const code = await new Promise<number | null | "hung">((res) => {
          const timer = setTimeout(() => res("hung"), 15_000);
          w.proc.once("exit", (c) => (clearTimeout(timer), res(c)));
        });
        const err = w.stderr().trim();
        const s = ((Date.now() - t) / 1000).toFixed(1);
        if (code === "hung") return { held: false, detail: `still running 15 s after SIGTERM; stderr ${JSON.stringify(short(err))}` };
        const held = code !== 0 && err.split("\n").length === 1 && !STACK.test(err);
        return { held, detail: `exit ${code} after ${s} s: ${short(err).slice(0, 80)}` };
      } finally {
        w.proc.kill("SIGKILL");
        redis.proc.kill("SIGKILL");
      }
    },
  },
];
