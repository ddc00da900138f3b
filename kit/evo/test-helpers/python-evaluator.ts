import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";

/**
 * A minimal real evaluator for tests written before the sandbox existed: runs the program with
 * /usr/bin/python3 (no isolation), parses its validation score and scores submission.csv by accuracy
 * against data/private/test_answer.csv.
 */
export async function pythonEvaluate(job: SandboxJob): Promise<ExecutionRecord> {
  const started = new Date();
  const code = job.code ?? "";
  const base = {
    executionId: `x-${createHash("sha256").update(`${job.runId}/${job.nodeId}/${code}`).digest("hex").slice(0, 12)}`,
    idempotencyKey: createHash("sha256").update(code).digest("hex").slice(0, 16), taskId: job.task.meta.id, backend: "test-python",
    errorType: null, errorSignature: null, traceback: null, stdoutTail: "", stderrTail: "", cpuS: 0, peakMemMb: null, artifacts: [],
    codeHash: createHash("sha256").update(code).digest("hex").slice(0, 16),
    limits: { timeoutS: job.limits?.timeoutS ?? 60, memoryMb: 1024, cpus: 1, gpus: 0, diskMb: 8192 }, validScore: null, testScore: null,
  };
  const end = (r: Partial<ExecutionRecord> & Pick<ExecutionRecord, "status">): ExecutionRecord => {
    const endedAt = new Date();
    return { ...base, ...r, startedAt: started, endedAt, wallS: (endedAt.getTime() - started.getTime()) / 1000 };
  };
  if (!code.trim()) return end({ status: "missing_code", errorSignature: "missing_code" });
  const dir = mkdtempSync(join(tmpdir(), "evo-job-"));
  try {
    mkdirSync(join(dir, "code"));
    writeFileSync(join(dir, "code/main.py"), code);
    const p = await new Promise<{ stdout: string; stderr: string; status: number | null; timedOut: boolean }>((resolve) => {
      const child = spawn("/usr/bin/python3", ["code/main.py"], {
        cwd: dir, env: { PATH: "/usr/bin:/bin", DATA_DIR: job.task.publicDir, OMP_NUM_THREADS: "1", OPENBLAS_NUM_THREADS: "1" },
      });
      let stdout = "";
      let stderr = "";
      let timedOut = false;
      const timer = setTimeout(() => { timedOut = true; child.kill("SIGKILL"); }, (job.limits?.timeoutS ?? 60) * 1000);
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (status) => { clearTimeout(timer); resolve({ stdout, stderr, status, timedOut }); });
    });
    const stdoutTail = (p.stdout ?? "").slice(-2000);
    const stderrTail = (p.stderr ?? "").slice(-2000);
    if (p.timedOut) return end({ status: "timeout", errorSignature: "timeout", stdoutTail, stderrTail });
    if (p.status !== 0) {
      const last = stderrTail.trim().split("\n").at(-1) ?? "";
      const type = /^(\w+(?:Error|Exception))/.exec(last)?.[1] ?? "Error";
      return end({ status: "runtime_error", errorType: type, errorSignature: type.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase(), traceback: stderrTail, stdoutTail, stderrTail });
    }
    const m = /Final Validation Score:\s*([-+0-9.eE]+)/.exec(p.stdout);
    const sub = join(dir, "submission.csv");
    if (!existsSync(sub)) return end({ status: "missing_submission", errorSignature: "submission_missing", stdoutTail, stderrTail });
    const truth = new Map(readFileSync(join(job.task.privateDir, "test_answer.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(",") as [string, string]));
    const pred = readFileSync(sub, "utf8").trim().split("\n").slice(1).map((l) => l.split(","));
    if (pred.length !== truth.size) return end({ status: "scoring_failure", errorSignature: "column_mismatch", stdoutTail, stderrTail });
    const acc = pred.filter(([id, y]) => truth.get(id!) === String(Math.round(Number(y)))).length / truth.size;
    return end({ status: "success", validScore: m ? Number(m[1]) : null, testScore: acc, stdoutTail, stderrTail });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
