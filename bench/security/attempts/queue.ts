// Attempts through Redis on a queue worker (issue 10.2, 10.5). The worker runs in this process,
// started with the fixture task only; it and the clients share the bench's queue key (queue-trust.ts
// tries what comes without it).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Queue, QueueEvents } from "bullmq";
import { loadTask } from "../../../kit/gym/index.js";
import { CPU_QUEUE, LocalExecutor, resolveQueueKey, SandboxQueueClient, signJob, startSandboxWorker } from "../../../kit/sandbox/index.js";
import { copyTask } from "../../../kit/sandbox/test-helpers.js";
import type { Attempt, AttemptContext, Outcome } from "../attempt.js";

const SAMPLE = 'import os, shutil\nshutil.copy(os.path.join(os.environ["DATA_DIR"], "sample_submission.csv"), "submission.csv")\n';
const limits = { timeoutS: 30, memoryMb: 512, cpus: 1, gpus: 0, diskMb: 1024 };
const KEY = "bench-queue-key-".padEnd(64, "q");

async function withWorker(ctx: AttemptContext, fn: (url: string) => Promise<Outcome>): Promise<Outcome> {
  if (!ctx.redisUrl) return { held: true, detail: "skipped: no redis-server" };
  const worker = await startSandboxWorker({ redisUrl: ctx.redisUrl, executor: new LocalExecutor(), cpus: 1, tasks: [ctx.task], workerId: "bench", key: KEY });
  try {
    return await fn(ctx.redisUrl);
  } finally {
    await worker.close();
  }
}

export const attempts: Attempt[] = [
  {
    id: "forged-task-path", source: "issue 10.2", what: "a job tagged with the key, naming a package path whose metric.py runs code on import", perExecutor: false,
    run: (ctx) =>
      withWorker(ctx, async (url) => {
        const marker = join(ctx.dir, "queue-metric-ran");
        const evil = copyTask(join(ctx.dir, "evil-task"), { "utils/metric.py": `open(${JSON.stringify(marker)}, "w").write("x")\n` });
        const queue = new Queue(CPU_QUEUE, { connection: { url }, prefix: "openmle" });
        const events = new QueueEvents(CPU_QUEUE, { connection: { url }, prefix: "openmle" });
        try {
          await events.waitUntilReady();
          const data = { taskRef: evil, taskId: "evil-task", taskHash: "0", code: SAMPLE, limits, priority: 0 };
          const jobId = `forged-${Date.now()}`;
          const job = await queue.add("run", { ...data, tag: signJob(resolveQueueKey({ key: KEY }), jobId, data) }, { jobId });
          const outcome = await job.waitUntilFinished(events).then(() => "completed", (e: Error) => e.message.slice(0, 60));
          return { held: !existsSync(marker) && outcome !== "completed", detail: `job ${outcome}; metric ${existsSync(marker) ? "ran" : "never ran"}` };
        } finally {
          await events.close();
          await queue.close();
        }
      }),
  },
  {
    id: "other-package-on-worker", source: "issue 10.5", what: "a client's package differs from the worker's under the same task id", perExecutor: false,
    run: (ctx) =>
      withWorker(ctx, async (url) => {
        const other = await loadTask(copyTask(join(ctx.dir, "other", ctx.meta.id), { "data/private/test_answer.csv": "id,label\n60,1\n" }, ctx.meta));
        const client = await SandboxQueueClient.connect(url, { key: KEY });
        try {
          const outcome = await client.submit({ task: other, code: SAMPLE, limits }).then((r) => `served ${r.status}`, (e: Error) => e.message.slice(0, 70));
          return { held: !outcome.startsWith("served"), detail: outcome };
        } finally {
          await client.close();
        }
      }),
  },
];
