// The queue's key and tags without Redis: what a forger, a replayer or a client with another key gets.
import { spawnSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../store/index.js";
import { QueueAuthError, QueueKeyError } from "./errors.js";
import {
  jobDataHash, openRecord, openRefusal, resolveQueueKey, sealRecord, sealRefusal, signJob, verifyJob,
} from "./queue-auth.js";

const KEY = resolveQueueKey({ key: "k".repeat(64) });
const OTHER = resolveQueueKey({ key: "o".repeat(64) });
const dir = mkdtempSync(join(tmpdir(), "queue-auth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the queue key", () => {
  writeFileSync(join(dir, "key"), `  ${"f".repeat(40)}\n`);
  writeFileSync(join(dir, "long"), "f".repeat(4097));
  spawnSync("mkfifo", [join(dir, "fifo")]);
  it.each([
    ["the key option", { key: "a".repeat(32) }, "a".repeat(32)],
    ["a key file, whitespace trimmed", { keyFile: join(dir, "key") }, "f".repeat(40)],
    ["OPENMLE_QUEUE_KEY", { env: { OPENMLE_QUEUE_KEY: "e".repeat(64) } }, "e".repeat(64)],
    ["the option before the variable", { key: "a".repeat(32), env: { OPENMLE_QUEUE_KEY: "e".repeat(64) } }, "a".repeat(32)],
  ])("comes from %s", (_, src, text) => {
    expect(resolveQueueKey(src).toString("utf8")).toBe(text);
  });

  it.each([
    ["no key at all", { env: {} }, /needs a shared key and OPENMLE_QUEUE_KEY gives none.*openssl rand -hex 32/],
    ["an empty variable", { env: { OPENMLE_QUEUE_KEY: "  \n" } }, /gives none/],
    ["31 characters", { env: { OPENMLE_QUEUE_KEY: "x".repeat(31) } }, /has 31 characters; use at least 32/],
    ["a missing key file", { keyFile: join(dir, "nope") }, /Cannot read the queue key from keyFile .*nope/],
    ["/dev/zero as the key file", { keyFile: "/dev/zero" }, /keyFile \/dev\/zero: \/dev\/zero is not a regular file/],
    ["a FIFO as the key file (not waited on)", { keyFile: join(dir, "fifo") }, /fifo is not a regular file/],
    ["a key file over 4 KiB", { keyFile: join(dir, "long") }, /long holds more than 4096 bytes/],
  ])("is refused with %s", (_, src, message) => {
    expect(() => resolveQueueKey(src)).toThrow(QueueKeyError);
    expect(() => resolveQueueKey(src)).toThrow(message);
  });
});

describe("job tags", () => {
  const data = { taskId: "t", taskHash: "h", code: "print(1)", limits: { timeoutS: 1, memoryMb: 64, cpus: 1, gpus: 0, diskMb: 1 }, priority: 0 };
  const tagged = { ...data, tag: signJob(KEY, "job-1", data) };

  it("are HMAC-SHA256 of the canonical JSON, bound to the job id", () => {
    const expected = createHmac("sha256", KEY).update(canonicalJson({ v: 1, kind: "job", jobId: "job-1", job: data })).digest("hex");
    expect(tagged.tag).toBe(expected);
    expect(verifyJob(KEY, "job-1", tagged)).toEqual(data);
    // key order does not matter (canonical JSON)
    expect(verifyJob(KEY, "job-1", Object.fromEntries(Object.entries(tagged).reverse()))).toEqual(data);
  });

  it.each([
    ["no tag", { ...data }, "job-1", KEY],
    ["another key's tag", { ...data, tag: signJob(OTHER, "job-1", data) }, "job-1", KEY],
    ["the tag of another job id", tagged, "job-2", KEY],
    ["a changed limit", { ...tagged, limits: { ...data.limits, memoryMb: 1e9 } }, "job-1", KEY],
    ["an added field", { ...tagged, taskRef: "/tmp/evil" }, "job-1", KEY],
    ["a tag that is not hex", { ...tagged, tag: "z".repeat(64) }, "job-1", KEY],
    ["a short tag", { ...tagged, tag: tagged.tag.slice(0, 62) }, "job-1", KEY],
    ["not an object", ["x"], "job-1", KEY],
    ["null", null, "job-1", KEY],
    ["data nested 10,000 deep (refused, not a stack overflow)", { ...tagged, code: JSON.parse(`${"[".repeat(10_000)}${"]".repeat(10_000)}`) }, "job-1", KEY],
  ])("refuse a job with %s", (_, raw, jobId, key) => {
    expect(verifyJob(key, jobId, raw)).toBeNull();
  });
});

describe("sealed records", () => {
  const job = { taskId: "t", taskHash: "h", code: "print(1)", limits: { timeoutS: 1, memoryMb: 64, cpus: 1, gpus: 0, diskMb: 1 } };
  const hash = jobDataHash(job);
  const record = { idempotencyKey: "job-1", status: "missing_submission", testScore: null, validScore: 0.5, startedAt: new Date(0) };
  // What the client reads: the sealed value after BullMQ's JSON trip.
  const trip = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
  const sealed = trip(sealRecord(KEY, "job-1", hash, record)) as { record: Record<string, unknown>; tag: string };

  it("open for their own job after the trip through Redis (dates as ISO strings)", () => {
    expect(openRecord(KEY, "job-1", hash, sealed)).toEqual({ ...record, startedAt: "1970-01-01T00:00:00.000Z" });
  });

  it("hash the code in full: one changed character is another job", () => {
    expect(jobDataHash({ ...job, code: "print(2)" })).not.toBe(hash);
    expect(jobDataHash({ ...job, limits: { ...job.limits, diskMb: 2 } })).not.toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  const forged = { status: "success", testScore: 1, idempotencyKey: "job-1" };
  it.each([
    ["a rogue worker's bare record", forged, "job-1", hash, KEY, /carries no sealed record/],
    ["a forged record in a sealed shape", { record: forged, tag: "0".repeat(64) }, "job-1", hash, KEY, /its tag is invalid/],
    ["a score raised in a valid envelope", { ...sealed, record: { ...sealed.record, testScore: 1 } }, "job-1", hash, KEY, /its tag is invalid/],
    ["a valid record replayed for another job id", sealed, "job-2", hash, KEY, /its tag is invalid/],
    ["a valid record replayed for other job data", sealed, "job-1", jobDataHash({ ...job, code: "x" }), KEY, /its tag is invalid/],
    ["a record sealed with another key", trip(sealRecord(OTHER, "job-1", hash, record)), "job-1", hash, KEY, /its tag is invalid/],
    ["a job's tag offered as a record's", { record, tag: signJob(KEY, "job-1", record) }, "job-1", hash, KEY, /its tag is invalid/],
    ["a validly sealed record whose idempotency key names another job", trip(sealRecord(KEY, "job-1", hash, { ...record, idempotencyKey: "job-9" })), "job-1", hash, KEY, /names another job \(job-9\)/],
    ["nothing", null, "job-1", hash, KEY, /carries no sealed record/],
    ["a record nested 10,000 deep", { record: JSON.parse(`{"a":${"[".repeat(10_000)}${"]".repeat(10_000)}}`), tag: "0".repeat(64) }, "job-1", hash, KEY, /its record nests JSON more than 64 levels deep/],
    ["a result too large to read", { oversizeBytes: 9e6, limit: 8e6 }, "job-1", hash, KEY, /its result is 9000000 bytes, over the client's limit/],
  ])("refuse %s", (_, raw, jobId, dataHash, key, message) => {
    expect(() => openRecord(key, jobId, dataHash, raw)).toThrow(QueueAuthError);
    expect(() => openRecord(key, jobId, dataHash, raw)).toThrow(message);
  });
});

describe("sealed refusals", () => {
  const text = "refused (over-cap memoryMb): the job asks for memoryMb=512 MiB, over this worker's cap of 256 MiB";
  const sealed = sealRefusal(KEY, "job-1", text);

  it("open for their own job, the seal cut off", () => {
    expect(sealed).toMatch(/^refused \(over-cap memoryMb\): .* \[sealed [0-9a-f]{64}\]$/);
    expect(openRefusal(KEY, "job-1", sealed)).toEqual({ text, sealed: true });
  });

  it.each([
    ["a refusal planted without a seal", text, "job-1", KEY],
    ["a forged seal", `${text} [sealed ${"0".repeat(64)}]`, "job-1", KEY],
    ["an edited text under a valid seal", sealed.replace("256", "128"), "job-1", KEY],
    ["a valid refusal replayed for another job", sealed, "job-2", KEY],
    ["a refusal sealed with another key", sealRefusal(OTHER, "job-1", text), "job-1", KEY],
  ])("do not open for %s", (_, failure, jobId, key) => {
    expect(openRefusal(key, jobId, failure).sealed).toBe(false);
  });
});
