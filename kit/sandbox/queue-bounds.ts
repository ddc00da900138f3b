// What crosses Redis is bounded before BullMQ parses it (issue 59.5). BullMQ JSON.parses a job's fields when it
// builds a Job from Redis's reply, and a result when a `completed` event arrives; anyone who can write to Redis
// chooses those strings, so the checks come before any tag can be: an untagged 200 MB job cost a worker about
// seven times its size before its tag was found wanting. The hooks are BullMQ's own: Worker#createJob (protected)
// and Queue#Job (the class whose fromJSON reads a job back), and the XREAD of the client's events connection.
import { Job, Queue, Worker, type JobJsonRaw, type MinimalQueue } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { utf8BytesOver } from "../store/index.js";
import { printableLine } from "../util/index.js";
import { QueueJobRefusedError } from "./errors.js";

/**
 * The most bytes of one job's data a worker reads: 1 MiB. A job is a program and its limits; the programs the
 * kit's policies write are 2–30 KiB (an LLM's answer of 8,192 tokens is about 32 KiB), so 1 MiB is 30 times
 * the largest while a refused job costs the worker no parse at all. Raise it with the worker's `maxJobBytes`.
 */
export const DEFAULT_MAX_JOB_BYTES = 1024 * 1024;

/**
 * The most bytes of one result a client reads: 8 MiB. A record is two output tails (64 KiB each by default,
 * up to six times that as JSON escapes), a traceback and at most 200 artifact names: under 1 MiB.
 */
export const DEFAULT_MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** BullMQ's other JSON fields of a job (options, progress, parent, stack traces) hold well under 64 KiB. */
export const MAX_QUEUE_FIELD_BYTES = 64 * 1024;

/** The fields BullMQ JSON.parses when it builds a Job, and what stands in for one too large to read. */
const PARSED: Readonly<Record<string, string | undefined>> = {
  data: "{}",
  opts: "{}",
  progress: "0",
  parent: undefined,
  stacktrace: "[]",
  returnvalue: undefined,
};

const MARKER_LIMIT = 2000;

/**
 * Text from Redis (a job's failure, a refusal) as quoted data on one line: JSON-quoted (so \n reads as \n, never
 * as a new line that looks like the kit's own output), other controls and bidi marks escaped, at most 2,000
 * characters (a longer text says how much was left out).
 */
export function quoteFailure(text: string): string {
  const cut = text.length > MARKER_LIMIT ? `${text.slice(0, MARKER_LIMIT)}` : text;
  const more = text.length > MARKER_LIMIT ? ` (and ${text.length - MARKER_LIMIT} more characters)` : "";
  return `${printableLine(JSON.stringify(cut))}${more}`;
}

/**
 * The raw job with every parsed field over its cap (UTF-8 bytes) replaced by its stand-in, and the first that was
 * too large: its name, its size in bytes (a lower bound once far over) and the cap.
 */
function boundRaw(raw: JobJsonRaw, maxDataBytes: number, maxFieldBytes: number) {
  const out: Record<string, unknown> = { ...raw };
  let over: { field: string; bytes: number; cap: number } | null = null;
  for (const [field, standIn] of Object.entries(PARSED)) {
    const v = out[field];
    const cap = field === "data" ? maxDataBytes : maxFieldBytes;
    const bytes = typeof v === "string" ? utf8BytesOver(v, cap) : null;
    if (bytes === null) continue;
    over ??= { field, bytes, cap };
    out[field] = standIn;
  }
  return { raw: over ? (out as unknown as JobJsonRaw) : raw, over };
}

/** Tags are 64 hex digits under "tag" (queue-auth.ts); data without one is refused before it is parsed. */
const TAG = /"tag":"[0-9a-f]{64}"/;

/** Refusals decided from a job's raw fields, keyed by the Job built for them (BoundedWorker → the processor). */
const refusals = new WeakMap<Job, QueueJobRefusedError>();

/** The refusal a BoundedWorker decided for `job` before parsing it, or undefined. */
export function rawRefusal(job: Job): QueueJobRefusedError | undefined {
  return refusals.get(job);
}

/**
 * `build(raw)`; when BullMQ's parse of a field throws (text that is not JSON: its data, opts, progress and parent
 * are parsed unguarded), `build` again with stand-ins for those fields, naming the first.
 */
function buildReadable<J>(raw: JobJsonRaw, build: (r: JobJsonRaw) => J): { job: J; notJson: string | null } {
  try {
    return { job: build(raw), notJson: null };
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    const out: Record<string, unknown> = { ...raw };
    let notJson: string | null = null;
    for (const [field, standIn] of Object.entries(PARSED)) {
      if (typeof out[field] !== "string") continue;
      try {
        JSON.parse(out[field] as string);
      } catch {
        notJson ??= field;
        out[field] = standIn;
      }
    }
    return { job: build(out as unknown as JobJsonRaw), notJson };
  }
}

/** Why a worker refuses a job from its raw fields alone (in this order), or null to read it. */
function refusalOf(
  data: unknown,
  over: { field: string; bytes: number; cap: number } | null,
  notJson: string | null,
): QueueJobRefusedError | null {
  if (over?.field === "data")
    return new QueueJobRefusedError(
      `the job's data is ${over.bytes} bytes, over this worker's cap of ${over.cap} bytes (refused unread); ` +
        `send a smaller program, or start workers with a higher maxJobBytes (openmle worker --max-job-kib)`,
      "over-cap",
      "jobBytes",
    );
  if (over)
    return new QueueJobRefusedError(
      `the job's ${over.field} field is ${over.bytes} bytes, over ${over.cap} (refused unread)`,
      "invalid-job",
    );
  if (notJson) return new QueueJobRefusedError(`the job's ${notJson} field is not JSON (refused)`, "invalid-job");
  if (!TAG.test(typeof data === "string" ? data : ""))
    return new QueueJobRefusedError(
      `the job carries no valid tag of this worker's queue key (it has none: refused unread; jobs are accepted ` +
        `only from holders of the key; give clients and workers the same key: OPENMLE_QUEUE_KEY or keyFile)`,
      "unauthenticated",
    );
  return null;
}

/**
 * A BullMQ Worker that checks each job's raw fields before BullMQ parses them: data over `maxJobBytes` or without
 * a tag, another field over 64 KiB, or a field that is not JSON makes a Job with stand-ins for what was not read,
 * and `rawRefusal(job)` says why; the processor refuses it (no retry) with one line.
 */
export class BoundedWorker<D = unknown, R = unknown> extends Worker<D, R> {
  maxJobBytes = DEFAULT_MAX_JOB_BYTES;

  protected override createJob(data: JobJsonRaw, jobId: string): Job<D, R, string> {
    const { raw, over } = boundRaw(data, this.maxJobBytes, MAX_QUEUE_FIELD_BYTES);
    const { job, notJson } = buildReadable(raw, (r) => super.createJob(r, jobId));
    const refusal = refusalOf(data.data, over, notJson);
    if (refusal) refusals.set(job, refusal);
    return job;
  }
}

/**
 * Clients: BullMQ's Job, read back with every parsed field over the client's cap, or not JSON, replaced before
 * parsing (a result by a marker that openRecord refuses).
 */
class BoundedJob extends Job {
  static override fromJSON<T = unknown, R = unknown, N extends string = string>(
    queue: MinimalQueue,
    json: JobJsonRaw,
    jobId?: string,
  ): Job<T, R, N> {
    const cap = (queue as unknown as { maxRecordBytes?: number }).maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    const rv = json.returnvalue;
    const { raw } = boundRaw(json, cap, cap);
    const bytes = typeof rv === "string" ? utf8BytesOver(rv, cap) : null;
    const returnvalue = bytes !== null ? oversizeMarker(bytes, cap) : raw.returnvalue;
    return buildReadable({ ...raw, returnvalue }, (r) => super.fromJSON<T, R, N>(queue, r, jobId)).job;
  }
}

/** What stands in for a result too large to read: its size (queue-auth.ts's openRecord refuses it, naming it). */
const oversizeMarker = (length: number, cap: number) => JSON.stringify({ oversizeBytes: length, limit: cap });

/** A client's Queue whose jobs read back through BoundedJob (results over `maxRecordBytes` are never parsed). */
export class BoundedQueue extends Queue {
  maxRecordBytes = DEFAULT_MAX_RECORD_BYTES;

  protected override get Job(): typeof Job {
    return BoundedJob as unknown as typeof Job;
  }
}

type XreadReply = [string, [string, string[]][]][] | null;

/**
 * The connection of a client's QueueEvents: each XREAD reply has every value over `maxBytes` replaced before
 * BullMQ parses it (a `completed` event's result by its size, progress data by null, text cut to the limit).
 * QueueEvents duplicates the connection it is given, so the duplicate is bounded too.
 */
export class BoundedEventsRedis extends Redis {
  constructor(
    options: RedisOptions,
    readonly maxBytes: number,
  ) {
    super(options);
    const xread = this.xread.bind(this) as (...args: unknown[]) => Promise<XreadReply>;
    const bounded = async (...args: unknown[]) => boundReply(await xread(...args), maxBytes);
    Object.defineProperty(this, "xread", { value: bounded, writable: true, configurable: true });
  }

  override duplicate(override?: Partial<RedisOptions>): Redis {
    return new BoundedEventsRedis({ ...this.options, ...override }, this.maxBytes);
  }
}

/** Whether `text` parses as JSON (the events BullMQ parses unguarded: one bad one would end its reading loop). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function boundReply(reply: XreadReply, maxBytes: number): XreadReply {
  for (const [, entries] of reply ?? [])
    for (const [, fields] of entries)
      for (let i = 1; i < fields.length; i += 2) {
        const name = fields[i - 1];
        const parsed = name === "returnvalue" || name === "data";
        const bytes = utf8BytesOver(fields[i]!, maxBytes);
        if (bytes === null && (!parsed || isJson(fields[i]!))) continue;
        if (!parsed) fields[i] = fields[i]!.slice(0, maxBytes);
        else if (name === "data") fields[i] = "null";
        else fields[i] = bytes === null ? JSON.stringify({ notJson: true }) : oversizeMarker(bytes, maxBytes);
      }
  return reply;
}
