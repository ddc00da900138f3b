// What a client accepts as an execution record from a validly sealed result (issue 59 review, keyed-worker-bad-record
// and keyed-worker-workdir): table-driven, without Redis.
import { describe, expect, it } from "vitest";
import { QueueRecordError } from "./errors.js";
import { codeHash } from "./idempotency-key.js";
import { readQueueRecord } from "./queue-record.js";

const limits = { timeoutS: 30, memoryMb: 512, cpus: 1, gpus: 0, diskMb: 1024 };
const job = { taskId: "tiny", code: "print(1)\n", limits };
/** A record as an honest worker's reads after the trip through Redis JSON. */
const honest = {
  executionId: "e1", idempotencyKey: "job-1", taskId: "tiny", backend: "local", status: "success", validScore: 0.5,
  testScore: 0.5, errorType: null, errorSignature: null, traceback: null, stdoutTail: "Final Validation Score: 0.5\n",
  stderrTail: "", wallS: 0.1, cpuS: 0.1, peakMemMb: 10, artifacts: ["submission.csv"], codeHash: codeHash(job.code),
  limits, startedAt: "2025-01-31T12:00:00.000Z", endedAt: "2025-01-31T12:00:01.000Z", exitCode: 0, exitSignal: null,
  warnings: [], worker: "w1", scoringS: 0.2, submissionPrint: { rows: 3, distinct: 2, ordered: "0123456789abcdef", sorted: "fedcba9876543210" },
};

describe("readQueueRecord", () => {
  it("revives an honest worker's record: dates as Dates, a worker's folder dropped", () => {
    const r = readQueueRecord("job-1", { ...honest, workDir: "/home/someone" }, job);
    expect(r.startedAt).toEqual(new Date("2025-01-31T12:00:00.000Z"));
    expect(r.endedAt).toBeInstanceOf(Date);
    expect("workDir" in r).toBe(false);
    expect(r).toMatchObject({ status: "success", testScore: 0.5, artifacts: ["submission.csv"], worker: "w1" });
  });

  it("accepts what a record may leave out or null", () => {
    const { exitCode: _e, exitSignal: _s, warnings: _w, worker: _k, scoringS: _c, submissionPrint: _p, ...bare } = honest;
    expect(readQueueRecord("job-1", { ...bare, validScore: null, testScore: null, peakMemMb: null }, job).testScore).toBeNull();
  });

  it.each([
    ["a date that is no ISO date", { startedAt: "yesterday" }, /startedAt: Invalid ISO datetime/],
    ["an unknown status", { status: "pwned" }, /status: Invalid option/],
    ["artifacts as a string", { artifacts: "x" }, /artifacts: Invalid input: expected array/],
    ["an output tail as a number", { stdoutTail: 7 }, /stdoutTail: Invalid input: expected string/],
    ["a score as a string", { testScore: "1e999" }, /testScore: Invalid input: expected number/],
    ["negative seconds", { wallS: -1 }, /wallS: Too small/],
    ["an unknown field", { pwned: true }, /Unrecognized key: \\"pwned\\"/],
    ["limits with an extra field", { limits: { ...limits, x: 1 } }, /limits: Unrecognized key/],
    ["another task", { taskId: "other" }, /it names task "other", the job ran tiny/],
    ["another program's code hash", { codeHash: "0" }, /its code hash "0" is not the job's/],
    ["other limits", { limits: { ...limits, memoryMb: 4096 } }, /its limits .* are not the job's/],
  ])("refuses %s with one typed line", (_, edit, message) => {
    const read = () => readQueueRecord("job-1", { ...honest, ...edit }, job);
    expect(read).toThrow(QueueRecordError);
    expect(read).toThrow(message);
    expect(() => read()).toThrow(/^Refused the record of queue job job-1: [^\n]*nothing was stored/);
  });

  it("names at most three problems", () => {
    const read = () => readQueueRecord("job-1", { ...honest, status: 1, artifacts: 1, stdoutTail: 1, stderrTail: 1 }, job);
    expect(read).toThrow(/\(and 1 more\)/);
  });
});
