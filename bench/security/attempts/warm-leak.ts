// What one program can learn of another's through warm start (issue 59 points 1, 2): a program leaves a marker in
// its code, output, files and kernel keyrings; the next (or a running) one scans its whole address space and every
// keyring it can reach for it. Plus the uid's key quota: filled by one job while another adds a key (per backend).
import { join } from "node:path";
import { runSandbox, SandboxQueueClient, startSandboxWorker, WarmExecutor, type Executor } from "../../../kit/sandbox/index.js";
import { lastJsonLine } from "../../../kit/sandbox/test-helpers.js";
import { LEAK_PROGRAMS, leakMarker } from "../../../kit/sandbox/warm-leak-programs.js";
import type { Attempt, AttemptContext } from "../attempt.js";

const limits = { timeoutS: 60, memoryMb: 1024, cpus: 1 };
let shared: WarmExecutor | undefined;
const warm = () => (shared ??= new WarmExecutor());
const run = (ctx: AttemptContext, code: string, executor: Executor = warm()) =>
  runSandbox({ task: ctx.task, code, limits, executor, jobsDir: join(ctx.dir, "leak-jobs"), rerun: true });
const report = (stdout: string): Record<string, unknown> => {
  try {
    return lastJsonLine(stdout);
  } catch {
    return {};
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Keys of the marker the scan found, per keyring (an error string where the calls were refused). */
const keysFound = (keys: unknown) =>
  Object.entries((keys ?? {}) as Record<string, unknown>).filter(([, v]) => Array.isArray(v) && v.length > 0).map(([k]) => k);
const scanDetail = (rep: Record<string, unknown>) =>
  `${rep.hits ?? "?"} copies of the marker in ${rep.scannedMb ?? "?"} MiB scanned; keys found in [${keysFound(rep.keys).join(", ")}]`;
const KEY = "bench-warm-leak-key-".padEnd(64, "w");

export const attempts: Attempt[] = [
  {
    id: "output-of-earlier", source: "issue 59.1", what: "print a marker 3,300 times, write it to a file; the next program scans /proc/self/mem for it", perExecutor: false,
    async run(ctx) {
      const m = leakMarker();
      await run(ctx, LEAK_PROGRAMS.leave(m.marker));
      const rep = report((await run(ctx, LEAK_PROGRAMS.scan(m.halves))).stdoutTail);
      return { held: rep.hits === 0, detail: scanDetail(rep) };
    },
  },
  {
    id: "output-of-running", source: "issue 59.1", what: "a program prints a marker and keeps running; one forked 1.5 s later scans its memory", perExecutor: false,
    async run(ctx) {
      const m = leakMarker();
      const holding = run(ctx, LEAK_PROGRAMS.leave(m.marker, 3));
      await sleep(1500);
      const rep = report((await run(ctx, LEAK_PROGRAMS.scan(m.halves))).stdoutTail);
      await holding;
      return { held: rep.hits === 0, detail: scanDetail(rep) };
    },
  },
  {
    id: "keys-carry-over", source: "issue 59.2", what: "store the marker as a key in the session, user and persistent keyrings; the next program reads them", perExecutor: false,
    async run(ctx) {
      const m = leakMarker();
      const left = report((await run(ctx, LEAK_PROGRAMS.leave(m.marker))).stdoutTail);
      const rep = report((await run(ctx, LEAK_PROGRAMS.scan(m.halves))).stdoutTail);
      const found = keysFound(rep.keys);
      return { held: found.length === 0, detail: `adding: ${JSON.stringify(left.keys)}; found in [${found.join(", ")}]` };
    },
  },
  {
    id: "key-quota", source: "issue 59.2", what: "one job fills the uid's key quota and holds it; a second job then adds one key", perExecutor: true,
    async run(ctx, executor) {
      const filling = run(ctx, LEAK_PROGRAMS.fillKeyQuota(4), executor!);
      await sleep(2500);
      const second = report((await run(ctx, LEAK_PROGRAMS.addOneKey(), executor!)).stdoutTail);
      const first = report((await filling).stdoutTail);
      const held = second.add !== "Disk quota exceeded";
      return { held, detail: `first added ${first.added} keys (${first.stopped || "no refusal"}); second: ${second.add}` };
    },
  },
  {
    id: "warm-worker-output", source: "issue 59.1", what: "on a --sandbox-start warm queue worker, one client's program scans for another client's printed marker", perExecutor: false,
    async run(ctx) {
      if (!ctx.redisUrl) return { held: true, detail: "skipped: no redis-server" };
      const executor = new WarmExecutor();
      const worker = await startSandboxWorker({ redisUrl: ctx.redisUrl, executor, cpus: 2, tasks: [ctx.task], workerId: "bench-leak", key: KEY });
      const [a, b] = [await SandboxQueueClient.connect(ctx.redisUrl, { key: KEY }), await SandboxQueueClient.connect(ctx.redisUrl, { key: KEY })];
      try {
        const m = leakMarker();
        await a.submit({ task: ctx.task, code: LEAK_PROGRAMS.leave(m.marker), limits });
        const rep = report((await b.submit({ task: ctx.task, code: LEAK_PROGRAMS.scan(m.halves), limits })).stdoutTail);
        return { held: rep.hits === 0 && keysFound(rep.keys).length === 0, detail: scanDetail(rep) };
      } finally {
        await Promise.all([a.close(), b.close()]);
        await worker.close();
        await executor.close();
      }
    },
  },
];
