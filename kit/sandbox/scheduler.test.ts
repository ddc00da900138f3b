import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, type TaskPackage } from "../gym/index.js";
import { SandboxCancelledError, SandboxConfigError } from "./errors.js";
import { probeBwrap } from "./local-executor.js";
import { SandboxPool } from "./scheduler.js";
import { TINY_TASK_DIR } from "./test-helpers.js";
import type { ExecutionRecord } from "./types.js";

const noBwrap = probeBwrap();
if (noBwrap) console.warn(`SKIP scheduler tests: ${noBwrap}`);

/** A program that sleeps and reports when it ran (host clock, ms). */
const sleeper = (s: number, tag: string) => `import time\nt0 = time.time()\ntime.sleep(${s})\nprint("SPAN", t0 * 1000, time.time() * 1000)  # ${tag}\n`;
const span = (r: ExecutionRecord) => r.stdoutTail.match(/SPAN ([\d.]+) ([\d.]+)/)!.slice(1).map(Number) as [number, number];
function maxOverlap(spans: [number, number][]): number {
  const ev = spans.flatMap(([a, b]) => [[a, 1], [b, -1]] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let cur = 0, best = 0;
  for (const [, d] of ev) best = Math.max(best, (cur += d));
  return best;
}

describe.skipIf(!!noBwrap)("SandboxPool", () => {
  let task: TaskPackage;
  beforeAll(async () => {
    task = await loadTask(TINY_TASK_DIR);
  });
  afterAll(() => undefined);
  const limits = { timeoutS: 20, memoryMb: 512, cpus: 1 };

  it("runs at most cpuSlots jobs at once, and all of them", async () => {
    const pool = new SandboxPool({ cpuSlots: 2 });
    const recs = await Promise.all([0, 1, 2, 3].map((i) => pool.submit({ task, code: sleeper(0.4, `j${i}`), limits })));
    expect(recs.map((r) => r.status)).toEqual(["missing_submission", "missing_submission", "missing_submission", "missing_submission"]);
    expect(maxOverlap(recs.map(span))).toBe(2);
  });

  it("starts higher priorities first", async () => {
    const pool = new SandboxPool({ cpuSlots: 1 });
    const blocker = pool.submit({ task, code: sleeper(0.3, "blocker"), limits });
    const low = pool.submit({ task, code: sleeper(0, "low"), limits, priority: 0 });
    const high = pool.submit({ task, code: sleeper(0, "high"), limits, priority: 5 });
    const [b, l, h] = await Promise.all([blocker, low, high]);
    expect(span(b)[0]).toBeLessThan(span(h)[0]);
    expect(span(h)[0]).toBeLessThan(span(l)[0]);
  });

  it("runs a duplicate (same task, code, limits) once and returns the same record", async () => {
    const pool = new SandboxPool({ cpuSlots: 2 });
    const job = { task, code: sleeper(0.2, "dup"), limits };
    const [a, b] = await Promise.all([pool.submit(job), pool.submit(job)]);
    const c = await pool.submit(job);
    expect(new Set([a.executionId, b.executionId, c.executionId]).size).toBe(1);
  });

  it("keeps the last doneCacheSize records: an evicted one runs again, a recently used one does not", async () => {
    const pool = new SandboxPool({ cpuSlots: 1, doneCacheSize: 2 });
    const [a, b, c] = ["a", "b", "c"].map((t) => ({ task, code: `print("${t}")\n`, limits }));
    const first = await pool.submit(a);
    const second = await pool.submit(b);
    expect((await pool.submit(a)).executionId).toBe(first.executionId); // a is now the most recent
    await pool.submit(c); // evicts b, the least recently used
    expect((await pool.submit(a)).executionId).toBe(first.executionId);
    expect((await pool.submit(b)).executionId).not.toBe(second.executionId);
    const none = new SandboxPool({ cpuSlots: 1, doneCacheSize: 0 });
    const once = await none.submit(a);
    expect((await none.submit(a)).executionId).not.toBe(once.executionId);
    expect(() => new SandboxPool({ cpuSlots: 1, doneCacheSize: -1 })).toThrow(SandboxConfigError);
  });

  it("leaves no abort listener on a long-lived signal once its jobs are done", async () => {
    const pool = new SandboxPool({ cpuSlots: 2 });
    const search = new AbortController();
    await Promise.all([0, 1, 2].map((i) => pool.submit({ task, code: sleeper(0, `l${i}`), limits, signal: search.signal })));
    expect(getEventListeners(search.signal, "abort")).toHaveLength(0);
  });

  it("cancels a queued job and a running one", async () => {
    const pool = new SandboxPool({ cpuSlots: 1 });
    const running = new AbortController();
    const queued = new AbortController();
    const first = pool.submit({ task, code: sleeper(30, "long"), limits, signal: running.signal });
    const second = pool.submit({ task, code: sleeper(30, "queued"), limits, signal: queued.signal });
    queued.abort();
    await expect(second).rejects.toBeInstanceOf(SandboxCancelledError);
    setTimeout(() => running.abort(), 300);
    await expect(first).rejects.toBeInstanceOf(SandboxCancelledError);
    expect([pool.running, pool.queued]).toEqual([0, 0]);
  });

  it("uses GPU slots: no overlap past gpuSlots, distinct CUDA_VISIBLE_DEVICES per job, CPU jobs see none, too-big GPU jobs refused", async () => {
    const pool = new SandboxPool({ cpuSlots: 2, gpuSlots: 1 });
    const recs = await Promise.all([0, 1].map((i) => pool.submit({ task, code: sleeper(0.3, `g${i}`), limits: { ...limits, gpus: 1 } })));
    expect(maxOverlap(recs.map(span))).toBe(1);
    const two = new SandboxPool({ cpuSlots: 2, gpuSlots: 2 });
    const show = (i: number) => `import os, time\ntime.sleep(0.3)\nprint("GPUS", os.environ["CUDA_VISIBLE_DEVICES"])  # ${i}\n`;
    const both = await Promise.all([0, 1].map((i) => two.submit({ task, code: show(i), limits: { ...limits, gpus: 1 } })));
    expect(both.map((r) => r.stdoutTail.match(/GPUS (\S+)/)![1]).sort()).toEqual(["0", "1"]);
    const cpuOnly = await two.submit({ task, code: 'import os\nprint("GPUS", repr(os.environ["CUDA_VISIBLE_DEVICES"]))\n', limits });
    expect(cpuOnly.stdoutTail).toContain("GPUS ''");
    await expect(pool.submit({ task, code: "print(1)", limits: { ...limits, gpus: 2 } })).rejects.toBeInstanceOf(SandboxConfigError);
  });

  it("per-job timeouts come from each job's limits", async () => {
    const pool = new SandboxPool({ cpuSlots: 2 });
    const [a, b] = await Promise.all([
      pool.submit({ task, code: sleeper(5, "t1"), limits: { ...limits, timeoutS: 0.5 } }),
      pool.submit({ task, code: sleeper(0.1, "t2"), limits: { ...limits, timeoutS: 10 } }),
    ]);
    expect([a.status, b.status]).toEqual(["timeout", "missing_submission"]);
  });
});
