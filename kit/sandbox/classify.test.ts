import { describe, expect, it } from "vitest";
import { classifyExecution, scoringSignature, type ProcessOutcome } from "./classify.js";
import { parseValidationScore } from "./parse-score.js";
import { extractPythonFailure, runtimeSignature } from "./traceback.js";
import { TailBuffer } from "../jail/index.js";
import { idempotencyKey } from "./idempotency-key.js";
import { resolveLimits } from "./limits.js";

const ok: ProcessOutcome = { exitCode: 0, signal: null, timedOut: false, oomKilled: false, sandboxError: null, stdout: "Final Validation Score: 0.8\n", stderr: "" };
const tb = (exc: string) => `Traceback (most recent call last):\n  File "/workspace/code/main.py", line 3, in <module>\n    x()\n${exc}\n`;

describe("classifyExecution: the six feedback modes", () => {
  const cases: [string, Parameters<typeof classifyExecution>[0], string, string | null][] = [
    ["no code", { codeMissing: true }, "missing_code", "missing_code"],
    ["timeout wins over exit code", { codeMissing: false, outcome: { ...ok, exitCode: null, signal: "SIGKILL", timedOut: true } }, "timeout", "timeout"],
    ["sandbox failure", { codeMissing: false, outcome: { ...ok, exitCode: 1, sandboxError: "bwrap: cannot mount" } }, "runtime_error", "sandbox_error"],
    ["disk quota", { codeMissing: false, outcome: { ...ok, exitCode: null, signal: "SIGKILL", diskQuota: "disk quota exceeded: 2048.0 MiB" } }, "runtime_error", "disk_quota"],
    ["file past RLIMIT_FSIZE", { codeMissing: false, outcome: { ...ok, exitCode: 1, stderr: tb("OSError: [Errno 27] File too large") } }, "runtime_error", "disk_quota"],
    ["submission over the size cap", { codeMissing: false, outcome: ok, submissionFound: true, score: { ok: false, kind: "invalid", message: "submission.csv is 400.0 MiB, over the 64.0 MiB cap" } }, "scoring_failure", "submission_too_large"],
    ["memory cap", { codeMissing: false, outcome: { ...ok, exitCode: null, signal: "SIGKILL", oomKilled: true } }, "runtime_error", "memory_error"],
    ["import error", { codeMissing: false, outcome: { ...ok, exitCode: 1, stderr: tb("ModuleNotFoundError: No module named 'lgbm'") } }, "runtime_error", "import_error"],
    ["key error", { codeMissing: false, outcome: { ...ok, exitCode: 1, stderr: tb("KeyError: 'target'") } }, "runtime_error", "key_error"],
    ["killed by a signal", { codeMissing: false, outcome: { ...ok, exitCode: null, signal: "SIGSEGV", stderr: "" } }, "runtime_error", "killed_by_sigsegv"],
    ["exit 3, no traceback", { codeMissing: false, outcome: { ...ok, exitCode: 3 } }, "runtime_error", "nonzero_exit"],
    ["no submission", { codeMissing: false, outcome: ok, submissionFound: false }, "missing_submission", "submission_missing"],
    ["invalid submission", { codeMissing: false, outcome: ok, submissionFound: true, score: { ok: false, kind: "invalid", message: "Submission has 3 rows, expected 20" } }, "scoring_failure", "row_count_mismatch"],
    ["metric crash", { codeMissing: false, outcome: ok, submissionFound: true, score: { ok: false, kind: "error", message: "ZeroDivisionError" } }, "scoring_failure", "metric_error"],
    ["success", { codeMissing: false, outcome: ok, submissionFound: true, score: { ok: true, score: 0.9 } }, "success", null],
    ["success without score line", { codeMissing: false, outcome: { ...ok, stdout: "done\n" }, submissionFound: true, score: { ok: true, score: 0.9 } }, "success", "metric_parse_failed"],
  ];
  it.each(cases)("%s", (_name, input, status, signature) => {
    const c = classifyExecution(input);
    expect(c.status).toBe(status);
    expect(c.errorSignature).toBe(signature);
  });

  it("keeps both scores on success", () => {
    const c = classifyExecution({ codeMissing: false, outcome: ok, submissionFound: true, score: { ok: true, score: 0.9 } });
    expect([c.validScore, c.testScore]).toEqual([0.8, 0.9]);
  });
});

describe("scoringSignature", () => {
  it.each([
    ["Submission columns ['id', 'prediction'] do not match expected columns ['id', 'label']", "column_mismatch"],
    ["Submission has 19 rows, expected 20 rows", "row_count_mismatch"],
    ["Submission contains NaN values", "nan_in_submission"],
    ["missing values in column label", "nan_in_submission"],
    ["Submission ids do not match the test ids", "id_mismatch"],
    ["Error tokenizing data. C error: Expected 2 fields", "invalid_csv"],
    ["labels must be 0 or 1", "invalid_submission"],
  ])("%s → %s", (message, sig) => expect(scoringSignature(message)).toBe(sig));
});

describe("parseValidationScore", () => {
  it.each([
    ["Final Validation Score: 0.8123\n", 0.8123],
    ["fold 1\nFinal Validation Score: 0.5\nFinal Validation Score: 0.75\n", 0.75],
    ["final validation score : -1.5e-2", -0.015],
    ["Final Validation Score: nan", null],
    ["Final Validation Score: high", null],
    ["no score here", null],
  ])("%j → %s", (stdout, v) => expect(parseValidationScore(stdout)).toBe(v));
});

describe("extractPythonFailure", () => {
  it("finds the last exception and its traceback", () => {
    const f = extractPythonFailure(`warning: x\n${tb("ValueError: bad shape")}`);
    expect(f.exception).toBe("ValueError");
    expect(f.message).toBe("bad shape");
    expect(f.excerpt?.startsWith("Traceback")).toBe(true);
  });
  it("reads a SyntaxError report, which has no Traceback header", () => {
    const f = extractPythonFailure(`  File "/workspace/code/main.py", line 2\n    def (\n        ^\nSyntaxError: invalid syntax\n`);
    expect([f.exception, runtimeSignature(f.exception, "")]).toEqual(["SyntaxError", "syntax_error"]);
    expect(f.excerpt).toContain("line 2");
  });
  it("maps dotted names and CUDA OOM", () => {
    expect(extractPythonFailure(tb("torch.OutOfMemoryError: CUDA out of memory")).exception).toBe("OutOfMemoryError");
    expect(runtimeSignature("OutOfMemoryError", "CUDA out of memory")).toBe("gpu_memory_error");
  });
});

describe("TailBuffer", () => {
  it("keeps head and tail and says how much was dropped", () => {
    const b = new TailBuffer(10, 5);
    for (let i = 0; i < 10; i++) b.push(Buffer.from("0123456789"));
    expect(b.total).toBe(100);
    expect(b.truncated).toBe(true);
    expect(b.text()).toBe("01234[... 85 bytes dropped ...]\n0123456789");
  });
  it("keeps everything under the cap", () => {
    const b = new TailBuffer(100, 5);
    b.push(Buffer.from("hello world"));
    expect([b.text(), b.truncated]).toEqual(["hello world", false]);
  });
});

describe("limits and idempotency key", () => {
  it("fills defaults and rejects nonsense", () => {
    expect(resolveLimits({ timeoutS: 5 })).toEqual({ timeoutS: 5, memoryMb: 4096, cpus: 2, gpus: 0, diskMb: 8192 });
    expect(() => resolveLimits({ diskMb: 0 })).toThrow(/diskMb=0/);
    expect(() => resolveLimits({ memoryMb: -1 })).toThrow(/memoryMb=-1/);
    expect(() => resolveLimits({ cpus: 1.5 })).toThrow(/cpus=1.5/);
  });
  it("depends on task id, package content, code, limits and backend", () => {
    const base = { taskId: "t", taskHash: "h1", code: "print(1)", limits: resolveLimits(), backend: "local" };
    const k = idempotencyKey(base);
    expect(idempotencyKey({ ...base, limits: { ...base.limits } })).toBe(k);
    for (const change of [{ code: "print(2)" }, { taskId: "u" }, { taskHash: "h2" }, { backend: "docker" }, { limits: { ...base.limits, timeoutS: 1 } }, { limits: { ...base.limits, diskMb: 1 } }]) {
      expect(idempotencyKey({ ...base, ...change }), JSON.stringify(change)).not.toBe(k);
    }
  });
});
