import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { testScoresByCode, writeExecution } from "./record-store.js";
import type { ExecutionRecord } from "./types.js";

const dir = mkdtempSync(join(tmpdir(), "openmle-records-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const record = (id: string, taskId: string, codeHash: string, testScore: number | null): ExecutionRecord => ({
  executionId: id,
  idempotencyKey: `key-${id}`,
  taskId,
  backend: "local",
  status: testScore === null ? "runtime_error" : "success",
  validScore: null,
  testScore,
  errorType: null,
  errorSignature: null,
  traceback: null,
  stdoutTail: "",
  stderrTail: "",
  wallS: 1,
  cpuS: 1,
  peakMemMb: null,
  artifacts: [],
  codeHash,
  limits: { timeoutS: 60, memoryMb: 1024, cpus: 1, gpus: 0, diskMb: 512 },
  startedAt: new Date(0),
  endedAt: new Date(1000),
});

describe("testScoresByCode", () => {
  it("means a program's graded runs, skips ungraded runs and other tasks", async () => {
    const ws = await openWorkspace(join(dir, "a"));
    try {
      for (const r of [
        record("1", "t", "aaa", 0.5),
        record("2", "t", "aaa", 0.7), // the same program under other limits: mean 0.6
        record("3", "t", "bbb", null), // failed: no test score
        record("4", "t", "ccc", 2),
        record("5", "u", "aaa", 9), // another task
      ])
        await writeExecution(ws, r);
      const got = await testScoresByCode(ws, "t");
      expect([...got.entries()].sort()).toEqual([
        ["aaa", expect.closeTo(0.6, 12)],
        ["ccc", 2],
      ]);
      expect((await testScoresByCode(ws, "none")).size).toBe(0);
    } finally {
      ws.close();
    }
  });
});
