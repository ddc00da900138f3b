import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, type TaskPackage } from "../gym/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { LocalExecutor, probeBwrap, UNSAFE_WARNING } from "./local-executor.js";
import { runSandbox } from "./run-sandbox.js";
import { hostPidsWith, program, TINY_TASK_DIR } from "./test-helpers.js";
import { SandboxCancelledError, SandboxUnavailableError } from "./errors.js";

const noBwrap = probeBwrap();
if (noBwrap) console.warn(`SKIP run-sandbox tests: ${noBwrap}`);

describe.skipIf(!!noBwrap)("runSandbox on the local executor: the six feedback modes from real programs", () => {
  let task: TaskPackage;
  let ws: Workspace;
  let wsDir: string;
  beforeAll(async () => {
    task = await loadTask(TINY_TASK_DIR);
    wsDir = mkdtempSync(join(tmpdir(), "sbx-ws-"));
    ws = await openWorkspace(join(wsDir, "ws"));
  });
  afterAll(() => {
    ws?.close();
    rmSync(wsDir, { recursive: true, force: true });
  });
  const limits = { timeoutS: 20, memoryMb: 1024, cpus: 1 };

  it("success: a real model, validation and hidden test scores, resources, artifacts", async () => {
    const r = await runSandbox({ task, code: program("success"), limits, workspace: ws });
    expect(r.status).toBe("success");
    expect(r.validScore).toBeGreaterThan(0.6);
    expect(r.testScore).toBeGreaterThan(0.6);
    expect(r.artifacts).toContain("submission.csv");
    expect(r.wallS).toBeGreaterThan(0);
    expect(r.cpuS).toBeGreaterThan(0);
    expect(r.peakMemMb).toBeGreaterThan(10);
    const rows = await ws.query("SELECT status, test_score, idempotency_key FROM executions");
    expect(rows).toEqual([{ status: "success", test_score: r.testScore, idempotency_key: r.idempotencyKey }]);
    // Same task, code and limits: the stored record comes back without a re-run.
    const again = await runSandbox({ task, code: program("success"), limits, workspace: ws });
    expect(again.executionId).toBe(r.executionId);
    expect((await ws.query("SELECT count(*) AS n FROM executions"))[0]!.n).toBe(1);
  });

  it("runtime_error: traceback kept, import_error signature", async () => {
    const r = await runSandbox({ task, code: program("runtime-error"), limits });
    expect([r.status, r.errorType, r.errorSignature]).toEqual(["runtime_error", "ModuleNotFoundError", "import_error"]);
    expect(r.traceback).toMatch(/^Traceback[\s\S]*lightgbm_that_does_not_exist/);
    expect(r.stderrTail).toContain("ModuleNotFoundError");
  });

  it("runtime_error: syntax_error", async () => {
    const r = await runSandbox({ task, code: "def broken(:\n    pass\n", limits });
    expect([r.status, r.errorSignature]).toEqual(["runtime_error", "syntax_error"]);
  });

  it("missing_code: nothing runs", async () => {
    for (const code of [null, "", "  \n"]) {
      const r = await runSandbox({ task, code, limits });
      expect([r.status, r.errorSignature, r.wallS]).toEqual(["missing_code", "missing_code", 0]);
    }
  });

  it("missing_submission", async () => {
    const r = await runSandbox({ task, code: program("missing-submission"), limits });
    expect([r.status, r.errorSignature, r.validScore]).toEqual(["missing_submission", "submission_missing", 0.5]);
  });

  it("scoring_failure: column_mismatch, nan_in_submission, row_count_mismatch", async () => {
    const r = await runSandbox({ task, code: program("scoring-failure"), limits });
    expect([r.status, r.errorSignature, r.testScore]).toEqual(["scoring_failure", "column_mismatch", null]);
    const nan = `import os, pandas as pd, numpy as np\nt = pd.read_csv(os.environ["DATA_DIR"] + "/test.csv")\npd.DataFrame({"id": t["id"], "label": np.nan}).to_csv("submission.csv", index=False)\n`;
    expect((await runSandbox({ task, code: nan, limits })).errorSignature).toBe("nan_in_submission");
    const rows = `open("submission.csv", "w").write("id,label\\n60,1\\n")\nprint("Final Validation Score: 1")\n`;
    expect((await runSandbox({ task, code: rows, limits })).errorSignature).toBe("row_count_mismatch");
  });

  it("metric_parse_failed: success without a score line keeps a warning", async () => {
    const code = program("success").replace(/print\(f"Final Validation Score.*\n/, 'print("done")\n');
    const r = await runSandbox({ task, code, limits });
    expect([r.status, r.validScore, r.errorSignature]).toEqual(["success", null, "metric_parse_failed"]);
  });

  it("timeout: the whole process tree dies", async () => {
    const token = `tok${Date.now()}`;
    const code = program("timeout").replace("time.sleep(3600)\n        os._exit(0)", `os.execv("/usr/bin/python3", ["/usr/bin/python3", "-c", "import time; time.sleep(3600)  # ${token}"])`);
    const r = await runSandbox({ task, code, limits: { ...limits, timeoutS: 1.5 } });
    expect([r.status, r.errorSignature]).toEqual(["timeout", "timeout"]);
    expect(r.wallS).toBeLessThan(5);
    expect(r.stdoutTail).toContain("children started");
    expect(hostPidsWith(token)).toEqual([]);
  });

  it("cancellation through an AbortSignal kills the job and throws", async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 500);
    const t0 = Date.now();
    await expect(runSandbox({ task, code: "import time\ntime.sleep(60)\n", limits, signal: ac.signal })).rejects.toBeInstanceOf(SandboxCancelledError);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it("bounds stdout: a program printing 20 MB keeps only the tail", async () => {
    const code = `import sys\nfor i in range(200000):\n    sys.stdout.write("x" * 99 + "\\n")\nprint("THE END")\n`;
    const r = await runSandbox({ task, code, limits, outputCapBytes: 4096 });
    expect(r.stdoutTail.length).toBeLessThan(4096 + 2048 + 100);
    expect(r.stdoutTail).toMatch(/bytes dropped[\s\S]*THE END/);
    expect(r.warnings?.some((w) => w.includes("truncated"))).toBe(true);
  });

  it("without bubblewrap: refuses, unless unsafe mode is chosen, which warns on every run", async () => {
    expect(() => new LocalExecutor({ bwrap: "/nonexistent/bwrap" })).toThrow(SandboxUnavailableError);
    const warnings: string[] = [];
    const executor = new LocalExecutor({ bwrap: "/nonexistent/bwrap", unsafe: true, onWarning: (w) => warnings.push(w) });
    expect(executor.name).toBe("local-unsafe");
    for (const i of [1, 2]) {
      const r = await runSandbox({ task, code: `print("Final Validation Score: ${i}")\n`, limits, executor });
      expect([r.status, r.validScore, r.backend]).toEqual(["missing_submission", i, "local-unsafe"]);
      expect(r.warnings).toContain(UNSAFE_WARNING);
    }
    expect(warnings).toEqual([UNSAFE_WARNING, UNSAFE_WARNING]);
  });

  it("without a cgroup, RLIMIT_AS still caps memory (MemoryError → memory_error)", async () => {
    const executor = new LocalExecutor({ cgroup: false });
    const code = "chunks = []\nfor i in range(100):\n    chunks.append(bytearray(50 * 1024 * 1024))\n";
    const r = await runSandbox({ task, code, limits: { ...limits, memoryMb: 300 }, executor });
    expect([r.status, r.errorSignature, r.peakMemMb]).toEqual(["runtime_error", "memory_error", null]);
  });

  it("sandbox_error: the sandbox itself cannot start (missing data folder)", async () => {
    const broken = { ...task, publicDir: "/nonexistent/openmle/public" };
    const r = await runSandbox({ task: broken, code: "print(1)\n", limits });
    expect([r.status, r.errorType, r.errorSignature]).toEqual(["runtime_error", "sandbox_error", "sandbox_error"]);
    expect(r.traceback).toMatch(/^bwrap: /);
  });
});
