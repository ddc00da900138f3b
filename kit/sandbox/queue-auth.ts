// What makes the Redis queue a trust boundary: a key shared by clients and workers, and HMAC-SHA256 tags
// on what crosses Redis. Whoever can reach Redis can write any job or any result, so a worker runs only
// jobs tagged by a key holder, and a client accepts only results tagged for the very job it submitted.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { checkJsonDepth, JsonBoundsError, canonicalJson, MAX_JSON_DEPTH } from "../store/index.js";
import { readBoundedText } from "../util/index.js";
import { QueueAuthError, QueueKeyError } from "./errors.js";

/** The environment variable that holds the queue key on clients and workers. */
export const QUEUE_KEY_ENV = "OPENMLE_QUEUE_KEY";
/** A shorter key is refused: 32 characters (`openssl rand -hex 32` gives 64). */
export const MIN_QUEUE_KEY_CHARS = 32;
/** A key file holds one key and a line break: more than 4 KiB is not a key file (e.g. /dev/zero), refused unread. */
export const MAX_QUEUE_KEY_FILE_BYTES = 4096;

/** Where the queue key comes from: `key` itself, else a file holding it, else OPENMLE_QUEUE_KEY. */
export interface QueueKeySource {
  /** The key text (tests, embedding). */
  readonly key?: string;
  /** A regular file of at most 4 KiB whose content (surrounding whitespace trimmed) is the key. */
  readonly keyFile?: string;
  /** Where OPENMLE_QUEUE_KEY is read (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
}

const HOW =
  `Generate one with \`openssl rand -hex 32\` and give the same key to every client and worker: ` +
  `export ${QUEUE_KEY_ENV}=<key>, or put it in a file readable only by you and pass the keyFile option.`;

/**
 * The queue key as bytes for HMAC. There is no keyless mode: without a key, Redis access alone would let
 * anyone submit jobs and forge scores, so the queue refuses to start and says how to set one.
 */
export function resolveQueueKey(src: QueueKeySource = {}): Buffer {
  let text: string | undefined;
  let from: string;
  if (src.key !== undefined) {
    [text, from] = [src.key, "the key option"];
  } else if (src.keyFile !== undefined) {
    from = `keyFile ${src.keyFile}`;
    try {
      text = readBoundedText(src.keyFile, MAX_QUEUE_KEY_FILE_BYTES);
    } catch (e) {
      throw new QueueKeyError(`Cannot read the queue key from ${from}: ${(e as Error).message}. ${HOW}`, {
        cause: e,
      });
    }
  } else {
    [text, from] = [(src.env ?? process.env)[QUEUE_KEY_ENV], QUEUE_KEY_ENV];
  }
  const key = (text ?? "").trim();
  if (!key) throw new QueueKeyError(`The Redis queue needs a shared key and ${from} gives none. ${HOW}`);
  if (key.length < MIN_QUEUE_KEY_CHARS)
    throw new QueueKeyError(
      `The queue key from ${from} has ${key.length} characters; use at least ${MIN_QUEUE_KEY_CHARS}. ${HOW}`,
    );
  return Buffer.from(key, "utf8");
}

/** HMAC-SHA256 (hex) of the canonical JSON of `message`; `kind` separates job tags from record tags. */
function tag(key: Buffer, kind: "job" | "record" | "refusal", message: Record<string, unknown>): string {
  return createHmac("sha256", key)
    .update(canonicalJson({ v: 1, kind, ...message }))
    .digest("hex");
}

/** Constant-time comparison of a claimed hex tag with the expected one. */
function tagMatches(claimed: unknown, expected: string): boolean {
  if (typeof claimed !== "string" || !/^[0-9a-f]{64}$/.test(claimed)) return false;
  return timingSafeEqual(Buffer.from(claimed, "hex"), Buffer.from(expected, "hex"));
}

/** What decides a job's result: task id and content hash, code, limits (sha256 of their canonical JSON). */
export function jobDataHash(d: {
  readonly taskId: string;
  readonly taskHash: string;
  readonly code: string | null;
  readonly limits: unknown;
}): string {
  const input = canonicalJson({ taskId: d.taskId, taskHash: d.taskHash, code: d.code, limits: d.limits });
  return createHash("sha256").update(input).digest("hex");
}

/** The tag a client puts on a job's data (`tag` field), bound to the job id. */
export function signJob(key: Buffer, jobId: string, data: Record<string, unknown>): string {
  return tag(key, "job", { jobId, job: data });
}

/** Whether `raw` (a job's data from Redis) carries a valid tag for `jobId`; returns the data without it. */
export function verifyJob(key: Buffer, jobId: string, raw: unknown): Record<string, unknown> | null {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const { tag: claimed, ...data } = raw as Record<string, unknown>;
  // Only a key holder's job can be hashed: anything nested past the limit was not signed by one.
  if (!withinDepth(data)) return null;
  return tagMatches(claimed, signJob(key, jobId, data)) ? data : null;
}

/** Whether a value from Redis nests no deeper than MAX_JSON_DEPTH (so canonicalJson can hash it). */
function withinDepth(value: unknown): boolean {
  try {
    checkJsonDepth(value, "queue data");
    return true;
  } catch (e) {
    if (e instanceof JsonBoundsError) return false;
    throw e;
  }
}

/** What a worker returns through Redis: the record (as JSON) and its tag. */
export interface SealedRecord {
  readonly record: Record<string, unknown>;
  readonly tag: string;
}

/**
 * A record sealed for one job: the tag covers the record as it will read after the trip through Redis
 * JSON (dates as ISO strings), the job id and the job's data hash, so it is valid for that job only.
 */
export function sealRecord(key: Buffer, jobId: string, dataHash: string, record: object): SealedRecord {
  const json = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
  return { record: json, tag: tag(key, "record", { jobId, dataHash, record: json }) };
}

/**
 * The record of a sealed result for `jobId`, or QueueAuthError when it has no valid tag for this job
 * and data hash (a forged result, one replayed from another job, or one signed with another key).
 */
export function openRecord(key: Buffer, jobId: string, dataHash: string, raw: unknown): Record<string, unknown> {
  const sealed = raw as Partial<SealedRecord> | null;
  const record = sealed && typeof sealed === "object" ? sealed.record : undefined;
  const fail = (why: string) =>
    new QueueAuthError(
      `Refused the result of queue job ${jobId}: ${why}. It was not produced by a worker holding this ` +
        `client's queue key for this job (a forged or replayed result, or client and workers have different ` +
        `keys); nothing was stored. Check who can write to Redis, and give clients and workers the same key.`,
      jobId,
    );
  if (!record || typeof record !== "object" || Array.isArray(record)) throw fail(noRecord(sealed));
  if (!withinDepth(record)) throw fail(`its record nests JSON more than ${MAX_JSON_DEPTH} levels deep`);
  if (!tagMatches(sealed!.tag, tag(key, "record", { jobId, dataHash, record }))) throw fail("its tag is invalid");
  if (record.idempotencyKey !== jobId) throw fail(`it names another job (${String(record.idempotencyKey)})`);
  return record;
}

/** How a worker's seal ends a refusal's failure text: ` [sealed <64 hex digits>]`. */
const REFUSAL_SEAL = / \[sealed ([0-9a-f]{64})\]$/;

/**
 * A worker's refusal of `jobId` as failure text for Redis, sealed with the key. Anyone who can write to Redis can
 * fail a job with refusal-shaped text; the seal lets a client tell a worker's refusal from such a forgery.
 */
export function sealRefusal(key: Buffer, jobId: string, text: string): string {
  return `${text} [sealed ${tag(key, "refusal", { jobId, text })}]`;
}

/** A job's failure text without its seal, and whether that seal is valid for `jobId` under this key. */
export function openRefusal(key: Buffer, jobId: string, failure: string): { text: string; sealed: boolean } {
  const m = failure.match(REFUSAL_SEAL);
  if (!m) return { text: failure, sealed: false };
  const text = failure.slice(0, m.index);
  return { text, sealed: tagMatches(m[1], tag(key, "refusal", { jobId, text })) };
}

/**
 * Why a result holds no record: one too large to read, or not JSON (the client's bounded connection left a
 * marker, see queue-bounds.ts), or none at all.
 */
function noRecord(sealed: unknown): string {
  const { oversizeBytes: bytes, notJson } = (sealed ?? {}) as { oversizeBytes?: unknown; notJson?: unknown };
  if (typeof bytes === "number")
    return `its result is ${bytes} bytes, over the client's limit for a result (maxRecordBytes), and was not read`;
  return notJson === true ? "its result is not JSON" : "it carries no sealed record";
}
