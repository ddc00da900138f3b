// Warm start (issue 28): the same programs cold and warm give the same records, in all six feedback modes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, type TaskPackage } from "../gym/index.js";
import { LocalExecutor, probeBwrap } from "./local-executor.js";
import { runSandbox } from "./run-sandbox.js";
import { program, TINY_TASK_DIR } from "./test-helpers.js";
import type { ExecutionRecord } from "./types.js";
import { WarmExecutor } from "./warm-executor.js";

const noBwrap = probeBwrap();
if (noBwrap) console.warn(`SKIP warm start tests: ${noBwrap}`);

/** Every field of a record except those that differ between any two runs (ids, times, resource use). */
function comparable(r: ExecutionRecord): Record<string, unknown> {
  const { executionId, startedAt, endedAt, wallS, cpuS, peakMemMb, scoringS, workDir, ...rest } = r as ExecutionRecord & {
    workDir?: string;
  };
  void [executionId, startedAt, endedAt, wallS, cpuS, peakMemMb, scoringS, workDir];
  return rest;
}

const PROGRAMS: Record<string, string> = {
  success: program("success"),
  missing_submission: program("missing-submission"),
  runtime_error: program("runtime-error"),
  scoring_failure: program("scoring-failure"),
  timeout: program("timeout"),
  missing_code: "   \n",
  exit_code: "import sys\nprint('partial', flush=True)\nsys.exit(3)\n",
  exit_message: "raise SystemExit('giving up')\n",
  segfault: "import ctypes\nctypes.string_at(0)\n",
  unflushed_file: [
    "import pandas as pd",
    "f = open('submission.csv', 'w')",
    "f.write(pd.read_csv('/data/sample_submission.csv').to_csv(index=False))",
    "print('Final Validation Score: 0.5')",
  ].join("\n"),
  atexit_and_thread: [
    "import atexit, threading, time",
    "atexit.register(lambda: print('bye', flush=True))",
    "t = threading.Thread(target=lambda: (time.sleep(0.3), print('thread done', flush=True)))",
    "t.start()",
    "print(__name__, __file__, __import__('sys').argv, __import__('os').getcwd())",
  ].join("\n"),
  chained_error: "try:\n    {}['k']\nexcept KeyError as e:\n    raise ValueError('wrapped') from e\n",
};

describe.skipIf(!!noBwrap)("warm start", () => {
  let task: TaskPackage;
  let jobsDir: string;
  let warm: WarmExecutor;
  const cold = new LocalExecutor();
  beforeAll(async () => {
    task = await loadTask(TINY_TASK_DIR);
    jobsDir = mkdtempSync(join(tmpdir(), "warm-eq-"));
    warm = new WarmExecutor({ onWarning: (m) => console.warn(m) });
  });
  afterAll(async () => {
    await warm?.close();
    rmSync(jobsDir, { recursive: true, force: true });
  });

  it("gives the records a cold start gives, program by program", { timeout: 240_000 }, async () => {
    // 8 s: a cold start on a loaded 2-core machine has passed 4 s for a program that succeeds
    const limits = { timeoutS: 8, memoryMb: 1024, cpus: 1 };
    const seen = new Set<string>();
    for (const [name, code] of Object.entries(PROGRAMS)) {
      const a = await runSandbox({ task, code, limits, executor: cold, rerun: true });
      const b = await runSandbox({ task, code, limits, executor: warm, rerun: true });
      expect(comparable(b), name).toEqual(comparable(a));
      seen.add(a.status);
    }
    expect(warm.start).toBe("warm");
    expect([...seen].sort()).toEqual(
      ["missing_code", "missing_submission", "runtime_error", "scoring_failure", "success", "timeout"].sort(),
    );
  });

  it("starts a program in a fraction of a cold start's time", { timeout: 120_000 }, async () => {
    const code = "import numpy, pandas, sklearn.ensemble\nprint('Final Validation Score: 0.5')\n";
    const limits = { timeoutS: 60, memoryMb: 1024, cpus: 1 };
    await runSandbox({ task, code, limits, executor: warm, rerun: true }); // the zygote starts
    const w: number[] = [];
    const c: number[] = [];
    for (let i = 0; i < 3; i++) {
      w.push((await runSandbox({ task, code, limits, executor: warm, rerun: true })).wallS);
      c.push((await runSandbox({ task, code, limits, executor: cold, rerun: true })).wallS);
    }
    const median = (x: number[]) => [...x].sort((p, q) => p - q)[1]!;
    expect(median(w)).toBeLessThan(median(c) * 0.6);
  });

  it("restarts a zygote that died, and the next program runs warm", { timeout: 120_000 }, async () => {
    const code = "print('Final Validation Score: 0.5')\n";
    const limits = { timeoutS: 30, memoryMb: 512, cpus: 1 };
    await runSandbox({ task, code, limits, executor: warm, rerun: true });
    const [pid] = warm.zygotePids();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, "SIGKILL");
    await new Promise((r) => setTimeout(r, 300));
    const r = await runSandbox({ task, code, limits, executor: warm, rerun: true });
    expect(r.status).toBe("missing_submission");
    expect(r.stdoutTail).toContain("Final Validation Score: 0.5");
    expect(warm.zygotePids()).not.toContain(pid);
    expect(warm.start).toBe("warm");
  });

  it("keeps at most maxZygotes when two lanes start zygotes at once", { timeout: 120_000 }, async () => {
    // Four environments of one task (OMP threads follow cpus: one zygote each), two programs at a time. Before the
    // fix a lane awaited its evicted zygote's close before inserting, the other lane saw room, and the map grew.
    const lanes = new WarmExecutor({ maxZygotes: 2 });
    const code = "print('Final Validation Score: 0.5')\n";
    const run = (cpus: number) => runSandbox({ task, code, limits: { timeoutS: 30, memoryMb: 512, cpus }, executor: lanes, rerun: true });
    try {
      for (const [a, b] of [[1, 2], [3, 4], [1, 3], [2, 4]] as const) {
        const rs = await Promise.all([run(a), run(b)]);
        expect(rs.map((r) => r.status)).toEqual(["missing_submission", "missing_submission"]);
        expect(lanes.zygotePids().length).toBeLessThanOrEqual(2);
      }
      expect(lanes.start).toBe("warm");
    } finally {
      await lanes.close();
    }
  });
});
