// The queue as a trust boundary (issue 25, breaks 3 and 4): whoever reaches Redis without the queue key
// forges or replays results, or pushes jobs; a key holder asks for more than a worker's caps. Honest
// workers run in this process on their own BullMQ prefix; rogue ones are plain BullMQ workers.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Queue, QueueEvents, Worker, type Job } from "bullmq";
import {
  CPU_QUEUE, LocalExecutor, QueueAuthError, QueueJobRefusedError, resolveQueueKey, SandboxQueueClient, signJob,
  startSandboxWorker, type WorkerCaps,
} from "../../../kit/sandbox/index.js";
import { jobSettled } from "../../../kit/sandbox/job-settled.js";
import { packageHash } from "../../../kit/gym/index.js";
import { openWorkspace } from "../../../kit/store/index.js";
import type { Attempt, AttemptContext, Outcome } from "../attempt.js";

const KEY = "bench-queue-trust-key-".padEnd(64, "t");
const SAMPLE = 'import os, shutil\nshutil.copy(os.path.join(os.environ["DATA_DIR"], "sample_submission.csv"), "submission.csv")\nprint("Final Validation Score: 0.5")\n';
const limits = { timeoutS: 30, memoryMb: 512, cpus: 1, gpus: 0, diskMb: 1024 };
let prefixes = 0;

/** An honest worker (the bench key, `caps`) on a fresh prefix; `fn` gets the URL and that prefix. */
async function withWorker(ctx: AttemptContext, caps: Partial<WorkerCaps>, fn: (url: string, prefix: string) => Promise<Outcome>): Promise<Outcome> {
  if (!ctx.redisUrl) return { held: true, detail: "skipped: no redis-server" };
  const prefix = `trust${++prefixes}`;
  const worker = await startSandboxWorker({ redisUrl: ctx.redisUrl, executor: new LocalExecutor(), cpus: 1, tasks: [ctx.task], workerId: "bench", key: KEY, prefix, caps });
  try {
    return await fn(ctx.redisUrl, prefix);
  } finally {
    await worker.close();
  }
}

/** A rogue BullMQ worker on `prefix` answering every job with `answer` while `fn` runs. */
async function withRogue(url: string, prefix: string, answer: (job: Job) => unknown, fn: () => Promise<Outcome>): Promise<Outcome> {
  const rogue = new Worker(CPU_QUEUE, async (job) => answer(job), { connection: { url }, prefix });
  try {
    return await fn();
  } finally {
    await rogue.close();
  }
}

/** A complete record claiming a perfect hidden-test score, as the rogue worker returned. */
const forged = (job: Job) => ({
  executionId: `forged-${job.id}`, idempotencyKey: job.id, taskId: job.data.taskId, backend: "queue", status: "success", validScore: 1, testScore: 1,
  errorType: null, errorSignature: null, traceback: null, stdoutTail: "", stderrTail: "", wallS: 0.1, cpuS: 0.1, peakMemMb: null, artifacts: [],
  codeHash: "0", limits: job.data.limits, startedAt: new Date().toISOString(), endedAt: new Date().toISOString(), worker: "rogue",
});

/** How a client's submit ended, in a few words; `refused` says whether it was the expected typed error. */
async function submitOutcome(p: Promise<{ status: string; testScore: number | null }>, expected: new (...a: never[]) => Error) {
  return p.then(
    (r) => ({ refused: false, detail: `accepted ${r.status}, hidden test ${r.testScore}`, message: "" }),
    (e: Error) => ({ refused: e instanceof expected, detail: `${e.name}: ${e.message.slice(0, 90)}`, message: e.message }),
  );
}

/** A refusal without its "A worker refused queue job <id>: " opening. */
const brief = (e: Error) => e.message.replace(/^A worker refused queue job \w+: /, "").slice(0, 110);

/** Push `data` straight into the queue at `prefix` (as anyone with Redis access can) and say how it ended. */
async function pushRaw(url: string, prefix: string, jobId: string, data: object): Promise<string> {
  const queue = new Queue(CPU_QUEUE, { connection: { url }, prefix });
  const events = new QueueEvents(CPU_QUEUE, { connection: { url }, prefix });
  try {
    await events.waitUntilReady();
    const job = await queue.add("run", data, { jobId, attempts: 3 });
    return await jobSettled(queue, job.id!, events, 200).then(() => "completed", (e: Error) => e.message);
  } finally {
    await events.close();
    await queue.close();
  }
}

export const attempts: Attempt[] = [
  {
    id: "rogue-record", source: "issue 25.3", what: "a rogue BullMQ worker returns {status: success, testScore: 1} for a program that writes nothing", perExecutor: false,
    run: (ctx) =>
      withWorker(ctx, {}, async (url) => {
        const wsDir = join(ctx.dir, "trust-ws");
        mkdirSync(ctx.dir, { recursive: true });
        const ws = await openWorkspace(wsDir);
        const prefix = `rogue${++prefixes}`;
        try {
          return await withRogue(url, prefix, forged, async () => {
            const client = await SandboxQueueClient.connect(url, { key: KEY, workspace: ws, prefix });
            try {
              const out = await submitOutcome(client.submit({ task: ctx.task, code: "print('no submission')\n", limits }), QueueAuthError);
              const rows = Number((await ws.query("SELECT count(*) AS n FROM executions"))[0]!.n);
              return { held: out.refused && rows === 0, detail: `${out.detail}; ${rows} rows stored` };
            } finally {
              await client.close();
            }
          });
        } finally {
          ws.close();
        }
      }),
  },
  {
    id: "replayed-record", source: "issue 25.3", what: "an honest worker's valid record of one job returned for another job", perExecutor: false,
    run: (ctx) =>
      withWorker(ctx, {}, async (url, prefix) => {
        const honest = await SandboxQueueClient.connect(url, { key: KEY, prefix });
        const good = await honest.submit({ task: ctx.task, code: SAMPLE, limits });
        await honest.close();
        const queue = new Queue(CPU_QUEUE, { connection: { url }, prefix });
        const sealed = (await queue.getJob(good.idempotencyKey))!.returnvalue as unknown;
        await queue.close();
        const replay = `replay${++prefixes}`;
        return withRogue(url, replay, () => sealed, async () => {
          const client = await SandboxQueueClient.connect(url, { key: KEY, prefix: replay });
          try {
            const out = await submitOutcome(client.submit({ task: ctx.task, code: "print('nothing')\n", limits }), QueueAuthError);
            return { held: out.refused, detail: `valid record (${good.status}, hidden test ${good.testScore}) replayed: ${out.detail}` };
          } finally {
            await client.close();
          }
        });
      }),
  },
  {
    id: "over-cap-job", source: "issue 25.4", what: "a key holder's job asking timeoutS 2e6, memoryMb 1e9, diskMb 1e9 (worker with default caps)", perExecutor: false,
    run: (ctx) =>
      withWorker(ctx, {}, async (url, prefix) => {
        const client = await SandboxQueueClient.connect(url, { key: KEY, prefix });
        try {
          const code = "x = bytearray(5000 * 1024 * 1024)\nprint('allocated')\n";
          const p = client.submit({ task: ctx.task, code, limits: { timeoutS: 2e6, memoryMb: 1e9, diskMb: 1e9, cpus: 1 } });
          const err = await p.then(() => null, (e: Error) => e);
          const held = err instanceof QueueJobRefusedError && err.limit === "timeoutS";
          return { held, detail: err ? brief(err) : "ran" };
        } finally {
          await client.close();
        }
      }),
  },
  {
    id: "over-memory-cap", source: "issue 25.4", what: "a job asking 512 MiB on a worker started with caps.memoryMb 256", perExecutor: false,
    run: (ctx) =>
      withWorker(ctx, { memoryMb: 256 }, async (url, prefix) => {
        const client = await SandboxQueueClient.connect(url, { key: KEY, prefix });
        try {
          const err = await client.submit({ task: ctx.task, code: SAMPLE, limits }).then(() => null, (e: Error) => e);
          const held = err instanceof QueueJobRefusedError && err.limit === "memoryMb" && /cap of 256 MiB/.test(err.message);
          return { held, detail: err ? brief(err) : "ran" };
        } finally {
          await client.close();
        }
      }),
  },
  {
    id: "untagged-job", source: "issue 25.3", what: "a job pushed straight into BullMQ with no tag (Redis access, no key)", perExecutor: false,
    run: (ctx) =>
      withWorker(ctx, {}, async (url, prefix) => {
        const data = { taskId: ctx.meta.id, taskHash: packageHash(ctx.task.dir), code: SAMPLE, limits, priority: 0 };
        const outcome = await pushRaw(url, prefix, `untagged-${Date.now()}`, data);
        return { held: /^refused \(unauthenticated\)/.test(outcome), detail: outcome.slice(0, 90) };
      }),
  },
  {
    id: "other-key-job", source: "issue 25.3", what: "a job tagged with a key the worker does not hold", perExecutor: false,
    run: (ctx) =>
      withWorker(ctx, {}, async (url, prefix) => {
        const client = await SandboxQueueClient.connect(url, { key: "a-guessed-key-".padEnd(64, "g"), prefix });
        try {
          // Since issue 59 the worker seals its refusals with its key, which this client cannot check: it gets
          // QueueAuthError naming the (unverified) refusal, not QueueJobRefusedError. Either way nothing ran.
          const out = await submitOutcome(client.submit({ task: ctx.task, code: SAMPLE, limits }), QueueAuthError);
          return { held: out.refused && /unauthenticated|no valid tag/.test(out.message), detail: out.detail };
        } finally {
          await client.close();
        }
      }),
  },
  {
    id: "nan-limits-job", source: "issue 25.4", what: "a key holder's job with NaN (null in JSON) and negative limits", perExecutor: false,
    run: (ctx) =>
      withWorker(ctx, {}, async (url, prefix) => {
        const data = { taskId: ctx.meta.id, taskHash: packageHash(ctx.task.dir), code: SAMPLE, limits: { timeoutS: null, memoryMb: -1, cpus: 1, gpus: 0, diskMb: 1 }, priority: 0 };
        const jobId = `nan-${Date.now()}`;
        const outcome = await pushRaw(url, prefix, jobId, { ...data, tag: signJob(resolveQueueKey({ key: KEY }), jobId, data) });
        return { held: /^refused \(invalid-job\)/.test(outcome), detail: outcome.slice(0, 110) };
      }),
  },
];
