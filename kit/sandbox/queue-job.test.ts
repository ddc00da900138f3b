// What a worker accepts: a job's shape and its limits against the worker's caps (hand-computed cases).
import { describe, expect, it } from "vitest";
import { QueueJobRefusedError, SandboxConfigError } from "./errors.js";
import { acceptJob, overCap, parseRefusal, refusalText, resolveWorkerCaps } from "./queue-job.js";

const caps = { timeoutS: 600, memoryMb: 4096, diskMb: 8192, cpus: 2 };
const fits = { timeoutS: 600, memoryMb: 4096, cpus: 2, gpus: 0, diskMb: 8192 };
const job = { taskId: "t", taskHash: "h", code: "print(1)", limits: { timeoutS: 30, memoryMb: 512, cpus: 1, gpus: 0, diskMb: 1024 }, priority: 0 };

describe("overCap: the first limit asked beyond its cap (asked > cap)", () => {
  it.each([
    ["every limit at its cap", fits, 0, null],
    ["timeout 600.5 s > 600 s", { ...fits, timeoutS: 600.5 }, 0, { limit: "timeoutS", asked: 600.5, cap: 600 }],
    ["the issue's job: timeout first of three", { ...fits, timeoutS: 2e6, memoryMb: 1e9, diskMb: 1e9 }, 0, { limit: "timeoutS", asked: 2e6, cap: 600 }],
    ["memory 4097 MiB > 4096", { ...fits, memoryMb: 4097 }, 0, { limit: "memoryMb", asked: 4097, cap: 4096 }],
    ["disk 1e9 MiB > 8192", { ...fits, diskMb: 1e9 }, 0, { limit: "diskMb", asked: 1e9, cap: 8192 }],
    ["3 CPUs > 2", { ...fits, cpus: 3 }, 0, { limit: "cpus", asked: 3, cap: 2 }],
    ["1 GPU on a CPU worker", { ...fits, gpus: 1 }, 0, { limit: "gpus", asked: 1, cap: 0 }],
    ["2 GPUs on a 2-GPU worker", { ...fits, gpus: 2 }, 2, null],
  ])("%s", (_, limits, gpus, expected) => {
    const got = overCap(limits, caps, gpus);
    expect(got && { limit: got.limit, asked: got.asked, cap: got.cap }).toEqual(expected);
  });
});

describe("worker caps", () => {
  it("default to the kit's default limits and the worker's CPU slots", () => {
    expect(resolveWorkerCaps({}, 4)).toEqual({ timeoutS: 600, memoryMb: 4096, diskMb: 8192, cpus: 4 });
    expect(resolveWorkerCaps({ memoryMb: 300 }, 1)).toEqual({ timeoutS: 600, memoryMb: 300, diskMb: 8192, cpus: 1 });
  });
  it.each([[{ timeoutS: Infinity }], [{ memoryMb: -1 }], [{ cpus: 1.5 }], [{ timeoutS: 1e9 }]])("refuse nonsense: %j", (partial) => {
    expect(() => resolveWorkerCaps(partial, 1)).toThrow(SandboxConfigError);
  });
});

describe("acceptJob", () => {
  it("returns a well-formed job within the caps", () => {
    expect(acceptJob(job, caps, 0)).toEqual(job);
  });
  it.each([
    ["NaN limits (null after JSON)", { ...job, limits: { ...job.limits, timeoutS: null } }, "invalid-job", /limits\.timeoutS/],
    ["a negative memory", { ...job, limits: { ...job.limits, memoryMb: -5 } }, "invalid-job", /limits\.memoryMb/],
    ["memory under the sandbox's 32 MiB", { ...job, limits: { ...job.limits, memoryMb: 8 } }, "invalid-job", /memoryMb=8 is invalid/],
    ["fractional CPUs", { ...job, limits: { ...job.limits, cpus: 1.5 } }, "invalid-job", /limits\.cpus/],
    ["a missing limit", { ...job, limits: { timeoutS: 1, memoryMb: 64, cpus: 1, gpus: 0 } }, "invalid-job", /limits\.diskMb/],
    ["a package path", { ...job, taskRef: "/tmp/evil" }, "invalid-job", /taskRef/],
    ["a code that is a number", { ...job, code: 5 }, "invalid-job", /code/],
    ["the issue's limits", { ...job, limits: { timeoutS: 2e6, memoryMb: 1e9, cpus: 1, gpus: 0, diskMb: 1e9 } }, "over-cap", /timeoutS=2000000 s, over this worker's cap of 600 s; .*caps\.timeoutS/],
    ["5000 MiB on a 4096 MiB worker", { ...job, limits: { ...job.limits, memoryMb: 5000 } }, "over-cap", /memoryMb=5000 MiB, over this worker's cap of 4096 MiB/],
  ])("refuses %s", (_, data, reason, message) => {
    const err = (() => { try { acceptJob(data, caps, 0); } catch (e) { return e; } })() as QueueJobRefusedError;
    expect(err).toBeInstanceOf(QueueJobRefusedError);
    expect([err.reason, err.message]).toEqual([reason, expect.stringMatching(message)]);
  });
  it("names the limit over its cap, and the client reads it back from the failure text", () => {
    const err = (() => { try { acceptJob({ ...job, limits: { ...job.limits, diskMb: 9000 } }, caps, 0); } catch (e) { return e; } })() as QueueJobRefusedError;
    expect(err.limit).toBe("diskMb");
    const back = parseRefusal(refusalText(err), "k1")!;
    expect(back).toBeInstanceOf(QueueJobRefusedError);
    expect([back.reason, back.limit, back.message]).toEqual(["over-cap", "diskMb", `A worker refused queue job k1: ${JSON.stringify(err.message)}`]);
    expect(parseRefusal("boom: out of memory", "k1")).toBeNull();
  });
});
