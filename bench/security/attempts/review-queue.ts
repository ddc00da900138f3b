// Fresh adversarial review of the queue (issue 59, "a fresh adversarial review of warm start and the queue"):
// attacks that queue.ts, queue-trust.ts and queue-bounds.ts do not try. A peer on Redis without the key poisons
// the events stream and a job's fields, plants a failure under a job id a client will use, forges a completion,
// floods the queue; a key holder squats another client's job id, or keeps a worker's memory; a worker holding the
// key returns records a client should not act on (a `workDir` the RL rollout deletes, fields that are no record).
// Each attempt runs an honest worker in this process on its own BullMQ prefix (as queue-trust.ts does).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { packageHash } from "../../../kit/gym/index.js";
import { runGroup } from "../../../kit/erl/rl/rollout-group.js";
import { defaultGrammarParams } from "../../../kit/policy/index.js";
import {
  CPU_QUEUE, idempotencyKey, jobDataHash, LocalExecutor, QueueAuthError, QueueJobRefusedError, queueEvaluate, resolveLimits,
  resolveQueueKey, sealRecord, signJob, SandboxQueueClient, startSandboxWorker, WarmExecutor, type Executor,
  type WorkerEvent,
} from "../../../kit/sandbox/index.js";
import { jobSettled } from "../../../kit/sandbox/job-settled.js";
import { openWorkspace } from "../../../kit/store/index.js";
import { createRng } from "../../../kit/util/rng.js";
import type { Attempt, AttemptContext, Outcome } from "../attempt.js";

const KEY = "bench-review-queue-key-".padEnd(64, "r");
const LIMITS = { timeoutS: 30, memoryMb: 512, cpus: 1, gpus: 0, diskMb: 1024 };
const SAMPLE = 'import os, shutil\nshutil.copy(os.path.join(os.environ["DATA_DIR"], "sample_submission.csv"), "submission.csv")\nprint("Final Validation Score: 0.5")\n';
let prefixes = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const j = (v: unknown) => JSON.stringify(v);
const within = <T>(p: Promise<T>, ms: number, late: T) => Promise.race([p, sleep(ms).then(() => late)]);

/** The job id (idempotency key) a client will use for `code` on the fixture task: anyone can compute it. */
const jobIdFor = (ctx: AttemptContext, code: string, limits = LIMITS) =>
  idempotencyKey({ taskId: ctx.task.meta.id, taskHash: packageHash(ctx.task.dir), code, limits: resolveLimits(limits), backend: "queue" });

/** Count Node stack traces written to stderr (console.error included) while `fn` runs; they are also kept out of the bench's output. */
async function countingStacks<T>(fn: () => Promise<T>): Promise<{ value: T; stacks: number; first: string }> {
  const write = process.stderr.write.bind(process.stderr);
  let stacks = 0;
  let first = "";
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const s = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString();
    if (/\n\s+at .+\(.+:\d+:\d+\)/.test(s)) {
      stacks++;
      first ||= s.split("\n")[0]!.slice(0, 100);
      return true;
    }
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    return { value: await fn(), stacks, first };
  } finally {
    process.stderr.write = write;
  }
}

interface Setup {
  readonly url: string;
  readonly prefix: string;
  readonly events: WorkerEvent[];
  client(opts?: { workspace?: Awaited<ReturnType<typeof openWorkspace>> }): Promise<SandboxQueueClient>;
  readonly peer: Redis;
}

/** An honest worker (the bench key) on a fresh prefix, a Redis connection for the peer, and clients made on demand. */
async function withQueue(
  ctx: AttemptContext,
  fn: (s: Setup) => Promise<Outcome>,
  o: { executor?: Executor; lockDurationMs?: number; stalledIntervalMs?: number; worker?: boolean } = {},
): Promise<Outcome> {
  if (!ctx.redisUrl) return { held: true, detail: "skipped: no redis-server" };
  const url = ctx.redisUrl;
  const prefix = `review${++prefixes}`;
  const events: WorkerEvent[] = [];
  const executor = o.executor ?? new LocalExecutor();
  const worker =
    o.worker === false
      ? null
      : await startSandboxWorker({
          redisUrl: url, executor, cpus: 1, tasks: [ctx.task], workerId: "review", key: KEY, prefix,
          lockDurationMs: o.lockDurationMs, stalledIntervalMs: o.stalledIntervalMs, onEvent: (e) => events.push(e),
        });
  const peer = new Redis(url, { maxRetriesPerRequest: null });
  const clients: SandboxQueueClient[] = [];
  try {
    return await fn({
      url, prefix, events, peer,
      client: async (c = {}) => {
        const cl = await SandboxQueueClient.connect(url, { key: KEY, prefix, ...c });
        clients.push(cl);
        return cl;
      },
    });
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await worker?.close({ force: true });
    await (executor as { close?: () => Promise<void> }).close?.();
    peer.disconnect();
  }
}

/** How a submit ended, in a few words. */
const ended = (p: Promise<{ status: string; stdoutTail: string }>) =>
  p.then(
    (r) => ({ ok: true, error: null as Error | null, text: `settled ${r.status} ${j(String(r.stdoutTail).trim().slice(0, 40))}` }),
    (e: Error) => ({ ok: false, error: e, text: `${e.name}: ${e.message.split("\n")[0]!.slice(0, 110)}` }),
  );

/** A BullMQ worker holding the queue key that answers each job with `record(job)`, sealed for that job. */
function keyedRogue(url: string, prefix: string, record: (job: Job) => Record<string, unknown>): Worker {
  const key = resolveQueueKey({ key: KEY });
  return new Worker(
    CPU_QUEUE,
    async (job) => {
      const { tag: _tag, ...data } = job.data as Record<string, unknown>;
      return sealRecord(key, String(job.id), jobDataHash(data as never), record(job));
    },
    { connection: { url }, prefix },
  );
}

/** A record as an honest worker would send it, for `job`. */
const recordFor = (job: Job, extra: Record<string, unknown>) => ({
  executionId: `rogue-${job.id}`, idempotencyKey: job.id, taskId: job.data.taskId, backend: "queue", status: "success",
  validScore: 0.5, testScore: 0.5, errorType: null, errorSignature: null, traceback: null, stdoutTail: "Final Validation Score: 0.5\n",
  stderrTail: "", wallS: 0.1, cpuS: 0.1, peakMemMb: 10, artifacts: ["submission.csv"], codeHash: "0", limits: job.data.limits,
  startedAt: new Date().toISOString(), endedAt: new Date().toISOString(), exitCode: 0, exitSignal: null, warnings: [], worker: "rogue",
  ...extra,
});

export const attempts: Attempt[] = [
  {
    id: "events-poison-hang",
    source: "issue 59 review",
    what: "a peer without the key XADDs `event error` and a `completed` event with returnvalue `{` to the events stream, then sets the next job's `progress` field to `{`: does the client settle, and without stack traces?",
    perExecutor: false,
    run: (ctx) =>
      withQueue(ctx, async ({ prefix, peer, client }) => {
        const c = await client();
        await c.submit({ task: ctx.task, code: "print('warm-up')", limits: LIMITS });
        const code = `print('after the poison ${Date.now()}')`;
        const id = jobIdFor(ctx, code);
        const { value, stacks, first } = await countingStacks(async () => {
          await peer.xadd(`${prefix}:${CPU_QUEUE}:events`, "*", "event", "error", "jobId", "x");
          await peer.xadd(`${prefix}:${CPU_QUEUE}:events`, "*", "event", "completed", "jobId", "x", "returnvalue", "{");
          await sleep(500);
          let broken = false;
          const watch = setInterval(() => {
            void peer.hexists(`${prefix}:${CPU_QUEUE}:${id}`, "data").then(async (has) => {
              if (has && !broken) await peer.hset(`${prefix}:${CPU_QUEUE}:${id}`, "progress", "{").then(() => (broken = true));
            });
          }, 20);
          const t = performance.now();
          const r = await within(ended(c.submit({ task: ctx.task, code, limits: LIMITS })), 25_000, { ok: false, error: null, text: "no answer after 25 s" });
          clearInterval(watch);
          return { r, s: (performance.now() - t) / 1000, broken };
        });
        const held = value.r.ok && stacks === 0;
        return { held, detail: `progress broken: ${value.broken}; submit: ${value.r.text} (${value.s.toFixed(1)} s); stack traces printed: ${stacks}${first ? ` (${first})` : ""}` };
      }),
  },
  {
    id: "malformed-job-fields",
    source: "issue 59 review",
    what: "a peer's jobs whose `data` (tag-shaped, 90 bytes) or `opts` field is not JSON: the worker should refuse each with one line, print no stack trace, and go on",
    perExecutor: false,
    run: (ctx) =>
      withQueue(
        ctx,
        async ({ url, prefix, peer, events, client }) => {
          const q = new Queue(CPU_QUEUE, { connection: { url }, prefix });
          try {
            const { value, stacks, first } = await countingStacks(async () => {
              const ids: string[] = [];
              for (const [field, bad] of [["data", `{"tag":"${"a".repeat(64)}"`], ["opts", "{"]] as const) {
                const job = await q.add("run", { x: 1 }, { jobId: `malformed-${field}-${Date.now()}`, delay: 500 });
                await peer.hset(`${prefix}:${CPU_QUEUE}:${job.id}`, field, bad);
                ids.push(job.id!);
              }
              await sleep(12_000);
              const states = await Promise.all(ids.map((i) => q.getJobState(i)));
              const failedEvents = events.filter((e) => e.type === "job-failed" && ids.includes(e.jobId)).length;
              const c = await client();
              const after = await within(ended(c.submit({ task: ctx.task, code: "print('after')", limits: LIMITS })), 30_000, { ok: false, error: null, text: "no answer after 30 s" });
              return { states, failedEvents, after };
            });
            const held = stacks === 0 && value.failedEvents === 2 && value.after.ok;
            return { held, detail: `after 12 s the jobs are ${j(value.states)}, job-failed events ${value.failedEvents}/2; stack traces printed: ${stacks}${first ? ` (${first})` : ""}; honest job after: ${value.after.text}` };
          } finally {
            await q.close();
          }
        },
        { lockDurationMs: 3000, stalledIntervalMs: 2000 },
      ),
  },
  {
    id: "planted-refusal",
    source: "issue 59 review",
    what: "a peer computes the job id of a program a client will submit (the idempotency key is public) and plants a failed job there with a worker-shaped refusal and a finishedOn in the future; the client submits it twice",
    perExecutor: false,
    run: (ctx) =>
      withQueue(ctx, async ({ prefix, peer, client }) => {
        const code = `print('baseline ${Date.now()}')`;
        const id = jobIdFor(ctx, code);
        const k = `${prefix}:${CPU_QUEUE}:${id}`;
        const future = Date.now() + 365 * 24 * 3600 * 1000;
        await peer.hset(k, { name: "run", data: "{}", opts: '{"attempts":1}', timestamp: String(Date.now()), delay: "0", priority: "0", atm: "1", finishedOn: String(future),
          failedReason: "refused (over-cap memoryMb): the job asks for memoryMb=512 MiB, over this worker's cap of 256 MiB; ask for less" });
        await peer.zadd(`${prefix}:${CPU_QUEUE}:failed`, future, id);
        const c = await client();
        const first = await ended(c.submit({ task: ctx.task, code, limits: LIMITS }));
        const second = await ended(c.submit({ task: ctx.task, code, limits: LIMITS }));
        const forged = [first, second].filter((r) => r.error instanceof QueueJobRefusedError).length;
        return { held: forged === 0, detail: `first: ${first.text}; second: ${second.text}` };
      }),
  },
  {
    id: "keyholder-id-squat",
    source: "issue 59 review",
    what: "a key holder tags its own program (prints a perfect score) under the job id another client's program will use; the victim submits its program (twice) and must never get the squatter's record",
    perExecutor: false,
    run: (ctx) =>
      withQueue(ctx, async ({ url, prefix, client }) => {
        const victim = `print('victim ${Date.now()}')`;
        const id = jobIdFor(ctx, victim);
        const data = { taskId: ctx.task.meta.id, taskHash: packageHash(ctx.task.dir), code: `${SAMPLE}print("Final Validation Score: 1.0")\n`, limits: resolveLimits(LIMITS), priority: 0 };
        const q = new Queue(CPU_QUEUE, { connection: { url }, prefix });
        const c = await client();
        try {
          await q.add("run", { ...data, tag: signJob(resolveQueueKey({ key: KEY }), id, data) }, { jobId: id, attempts: 1 });
          await within(jobSettled(q, id, (c as unknown as { events: Record<string, never> }).events[CPU_QUEUE]!, 300).catch(() => undefined), 30_000, undefined);
          const first = await ended(c.submit({ task: ctx.task, code: victim, limits: LIMITS }));
          const second = await ended(c.submit({ task: ctx.task, code: victim, limits: LIMITS }));
          const gotSquatter = [first, second].some((r) => r.ok && /1\.0|0\.5/.test(r.text));
          const held = !gotSquatter && (first.error instanceof QueueAuthError || first.ok) && second.ok && second.text.includes("victim");
          return { held, detail: `first: ${first.text}; second: ${second.text}` };
        } finally {
          await q.close();
        }
      }),
  },
  {
    id: "keyed-worker-workdir",
    source: "issue 59 review",
    what: "a worker holding the key returns a valid sealed record whose `workDir` names a folder on the client's host; an RL rollout group (queueEvaluate) then handles the record",
    perExecutor: false,
    run: (ctx) =>
      withQueue(
        ctx,
        async ({ url, prefix, client }) => {
          const precious = join(ctx.dir, "client-precious");
          mkdirSync(precious, { recursive: true });
          writeFileSync(join(precious, "thesis.tex"), "years of work");
          writeFileSync(join(precious, "submission.csv"), "id,label\n");
          const rogue = keyedRogue(url, prefix, (job) => recordFor(job, { workDir: precious }));
          const c = await client();
          try {
            const g = await within(
              runGroup(
                { groupId: "review", task: ctx.task, operator: "draft", parents: [], parentTestScores: [], params: defaultGrammarParams(), version: 0, size: 1, rng: createRng(7) },
                { execute: queueEvaluate(c), limits: { timeoutS: 30, memoryMb: 512 }, runId: "review", now: () => Date.now() },
              ).then((r) => `group done, record status ${r.rollouts[0]?.record?.status}`, (e: Error) => `group failed: ${e.message.slice(0, 80)}`),
              40_000,
              "no answer after 40 s",
            );
            const gone = !existsSync(join(precious, "thesis.tex"));
            return { held: !gone, detail: `${g}; the client's ${precious.replace(ctx.dir, "<scratch>")} ${gone ? "was DELETED by the client" : "is intact"}` };
          } finally {
            await rogue.close();
          }
        },
        { worker: false },
      ),
  },
  {
    id: "keyed-worker-bad-record",
    source: "issue 59 review",
    what: "a worker holding the key seals `record`s that are no ExecutionRecord: (1) startedAt 'yesterday'; (2) status 'pwned', artifacts a string, stdoutTail a number, testScore '1e999'; the client stores records in a workspace",
    perExecutor: false,
    run: (ctx) =>
      withQueue(
        ctx,
        async ({ url, prefix, client }) => {
          const ws = await openWorkspace(join(ctx.dir, `review-ws-${Date.now()}`), { create: true });
          const variants: Record<string, unknown>[] = [{ startedAt: "yesterday" }, { status: "pwned", artifacts: "x", stdoutTail: 7, testScore: "1e999" }];
          const rogue = keyedRogue(url, prefix, (job) => recordFor(job, variants[Number(String(job.data.code).split("#")[1])] ?? {}));
          try {
            const c = await client({ workspace: ws });
            const out: string[] = [];
            let bad = 0;
            for (let i = 0; i < variants.length; i++) {
              const r = await within(ended(c.submit({ task: ctx.task, code: `print('bad ${Date.now()}') #${i}`, limits: LIMITS }) as never), 30_000, { ok: false, error: null, text: "no answer after 30 s" });
              const typed = r.error instanceof QueueAuthError || r.error?.name === "SandboxError" || (r.error as { userFacing?: boolean } | null)?.userFacing === true;
              if (r.ok || !typed) bad++;
              out.push(`(${i + 1}) ${r.ok ? "accepted: " : typed ? "refused: " : "untyped error (the CLI prints its stack): "}${r.text.slice(0, 90)}`);
            }
            const rows = await ws.query("select status, test_score, artifacts from executions").catch((e: Error) => `query failed: ${e.message.slice(0, 60)}`);
            return { held: bad === 0, detail: `${out.join("; ")}; rows stored ${j(rows).slice(0, 160)}` };
          } finally {
            await rogue.close();
            await ws.close();
          }
        },
        { worker: false },
      ),
  },
  {
    id: "worker-record-cache",
    source: "issue 59 review",
    what: "a key holder sends a warm worker 40 distinct programs that each print 64 KiB (non-ASCII) on both streams, after 40 such to warm up: what the worker keeps afterwards (its pool's finished-record map)",
    perExecutor: false,
    run: (ctx) =>
      withQueue(
        ctx,
        async ({ client }) => {
          setFlagsFromString("--expose-gc");
          const gc = runInNewContext("gc") as () => void;
          const c = await client();
          const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);
          const n = 40;
          const tag = Date.now();
          const big = (i: number) => `import sys\nsys.stdout.write("\\u00e9\\u4e2d" * 13000)\nsys.stderr.write("\\u00e9\\u4e2d" * 13000)\n# ${tag}-${i}`;
          // Warm-up: a first batch of the same programs. V8 compiles the large-output path while it runs (~1.4 MiB
          // of code and feedback that stops growing after ~60 jobs), which is no record kept; the second batch counts.
          for (let i = 0; i < n; i++) await c.submit({ task: ctx.task, code: big(-1 - i), limits: LIMITS });
          const before = heap();
          for (let i = 0; i < n; i++) {
            await c.submit({ task: ctx.task, code: big(i), limits: LIMITS });
          }
          const after = heap();
          const perJob = (after - before) / n / 1024;
          return { held: perJob < 16, detail: `${n} jobs: the worker's process kept ${((after - before) / 1048576).toFixed(1)} MiB more heap (${perJob.toFixed(0)} KiB a job, never freed: 10,000 such jobs ≈ ${(perJob * 10000 / 1048576).toFixed(1)} GiB)` };
        },
        { executor: new WarmExecutor() },
      ),
  },
  {
    id: "events-forged-completed",
    source: "issue 59 review",
    what: "while an honest worker runs a client's job, a peer XADDs a `completed` event for it carrying a bogus sealed record: how the client and the worker end (the README grants a peer deleting jobs)",
    perExecutor: false,
    run: (ctx) =>
      withQueue(ctx, async ({ prefix, peer, events, client }) => {
        const c = await client();
        await c.submit({ task: ctx.task, code: "print('warm-up')", limits: LIMITS });
        const code = `import time\ntime.sleep(3)\nprint('slow ${Date.now()}')`;
        const id = jobIdFor(ctx, code);
        const { value, stacks, first } = await countingStacks(async () => {
          const p = ended(c.submit({ task: ctx.task, code, limits: LIMITS }));
          await sleep(1500);
          await peer.xadd(`${prefix}:${CPU_QUEUE}:events`, "*", "event", "completed", "jobId", id, "returnvalue", j({ record: { idempotencyKey: id, status: "success", testScore: 1 }, tag: "0".repeat(64) }));
          const r = await within(p, 20_000, { ok: false, error: null, text: "no answer after 20 s" });
          await sleep(4000);
          const next = await within(ended(c.submit({ task: ctx.task, code: `print('next ${Date.now()}')`, limits: LIMITS })), 30_000, { ok: false, error: null, text: "no answer after 30 s" });
          return { r, next, workerSaw: events.filter((e) => "jobId" in e && e.jobId === id).map((e) => e.type) };
        });
        const held = !value.r.ok && value.r.error instanceof QueueAuthError && value.next.ok && stacks === 0;
        return { held, detail: `client: ${value.r.text.slice(0, 90)}; worker events for the job ${j(value.workerSaw)}; next job: ${value.next.text}; stack traces ${stacks}${first ? ` (${first})` : ""}` };
      }),
  },
  {
    id: "pause-queue",
    source: "issue 59 review",
    what: "a peer without the key pauses the CPU queue (one write to its meta hash) while a client submits: does the client or the worker say anything, or does the submit wait silently?",
    perExecutor: false,
    run: (ctx) =>
      withQueue(ctx, async ({ url, prefix, events, client }) => {
        const q = new Queue(CPU_QUEUE, { connection: { url }, prefix });
        const c = await client();
        try {
          await c.submit({ task: ctx.task, code: "print('warm-up')", limits: LIMITS });
          const code = `print('paused ${Date.now()}')`;
          const id = jobIdFor(ctx, code);
          await q.pause();
          const r = await within(ended(c.submit({ task: ctx.task, code, limits: LIMITS })), 15_000, { ok: false, error: null, text: "no answer and no error after 15 s" });
          const said = events.filter((e) => "jobId" in e && e.jobId === id).map((e) => e.type);
          await q.resume();
          return { held: r.ok || r.error !== null || said.length > 0, detail: `client: ${r.text}; worker events meanwhile ${j(said)}` };
        } finally {
          await q.resume().catch(() => undefined);
          await q.close();
        }
      }),
  },
  {
    id: "refusal-flood",
    source: "issue 59 review",
    what: "a peer pushes 3,000 untagged jobs at BullMQ priority 1 (ahead of every client's job) just before a client submits: how long the client waits, and whether the worker holds up",
    perExecutor: false,
    run: (ctx) =>
      withQueue(ctx, async ({ url, prefix, events, client, peer }) => {
        const q = new Queue(CPU_QUEUE, { connection: { url }, prefix });
        const c = await client();
        try {
          await c.submit({ task: ctx.task, code: "print('warm-up')", limits: LIMITS });
          const n = 3000;
          const t0 = performance.now();
          await q.addBulk(Array.from({ length: n }, (_, i) => ({ name: "run", data: { taskId: "x", i }, opts: { jobId: `flood-${i}`, priority: 1, removeOnFail: false } })));
          const t = performance.now();
          const r = await within(ended(c.submit({ task: ctx.task, code: `print('under flood ${Date.now()}')`, limits: LIMITS })), 180_000, { ok: false, error: null, text: "no answer after 180 s" });
          const s = (performance.now() - t) / 1000;
          const refused = events.filter((e) => e.type === "job-failed").length;
          const mem = await peer.info("memory").then((i) => /used_memory_human:(\S+)/.exec(i)?.[1]);
          return { held: r.ok && s < 120, detail: `pushed in ${((t - t0) / 1000).toFixed(1)} s; client waited ${s.toFixed(1)} s (${r.text.slice(0, 50)}); worker refused ${refused}; redis memory ${mem}` };
        } finally {
          await q.obliterate({ force: true }).catch(() => undefined);
          await q.close();
        }
      }),
  },
];

/** Nothing shared to stop (each attempt closes what it opened); kept for the driver's symmetry with review-warm. */
export async function closeReviewQueue(): Promise<void> {}
