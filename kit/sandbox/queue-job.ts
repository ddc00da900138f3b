// What a worker accepts from Redis: a job's shape (zod, unknown keys refused) and its limits within the
// worker's caps. Checked after the job's tag (queue-auth.ts), before the task is looked up.
import { z } from "zod";
import { QueueJobRefusedError, SandboxConfigError, type QueueRefusal } from "./errors.js";
import { DEFAULT_LIMITS, resolveLimits } from "./limits.js";
import { quoteFailure } from "./queue-bounds.js";
import type { SandboxLimits } from "./types.js";

/** A job's data as it travels through Redis (without its tag): a task id and hash, never a path. */
export const QueueJobSchema = z
  .object({
    /** The task's id; the worker must have been started with it. */
    taskId: z.string().min(1).max(256),
    /** The package content hash the client expects (gym's packageHash); a worker with another refuses. */
    taskHash: z.string().min(1).max(128),
    /** The program; null → missing_code. */
    code: z.string().nullable(),
    /** Finite, non-negative limits (JSON has no NaN or Infinity: they arrive as null and are refused). */
    limits: z
      .object({
        timeoutS: z.number().positive(),
        memoryMb: z.number().positive(),
        cpus: z.number().int().min(1),
        gpus: z.number().int().min(0),
        diskMb: z.number().positive(),
      })
      .strict(),
    /** Higher runs first. */
    priority: z.number(),
    runId: z.string().max(256).optional(),
    nodeId: z.string().max(256).optional(),
  })
  .strict();
export type QueueJobData = z.infer<typeof QueueJobSchema>;

/** The most a worker accepts per job; a job asking for more is refused (not clamped: limits are in its key). */
export interface WorkerCaps {
  readonly timeoutS: number;
  readonly memoryMb: number;
  readonly diskMb: number;
  readonly cpus: number;
}

/** Each cap: its unit, and the worker option (`caps.<name>`) that raises it. */
const CAPPED: readonly { readonly limit: keyof WorkerCaps; readonly unit: string }[] = [
  { limit: "timeoutS", unit: " s" },
  { limit: "memoryMb", unit: " MiB" },
  { limit: "diskMb", unit: " MiB" },
  { limit: "cpus", unit: " CPU(s)" },
];

/**
 * A worker's caps: the given ones, else the kit's default job limits (600 s, 4096 MiB, 8192 MiB of disk)
 * and the worker's own CPU slots. Caps beyond what a job may ask at all are refused.
 */
export function resolveWorkerCaps(partial: Partial<WorkerCaps>, cpuSlots: number): WorkerCaps {
  const caps: WorkerCaps = {
    timeoutS: partial.timeoutS ?? DEFAULT_LIMITS.timeoutS,
    memoryMb: partial.memoryMb ?? DEFAULT_LIMITS.memoryMb,
    diskMb: partial.diskMb ?? DEFAULT_LIMITS.diskMb,
    cpus: partial.cpus ?? cpuSlots,
  };
  try {
    resolveLimits({ ...caps, gpus: 0 });
  } catch (e) {
    throw new SandboxConfigError(`Worker caps are invalid: ${(e as Error).message}`, { cause: e });
  }
  return caps;
}

/**
 * The first limit a job asks beyond the worker's caps, in the order timeoutS, memoryMb, diskMb, cpus,
 * then gpus (the worker's GPU slots); null when all fit. Rule: over ⇔ asked > cap.
 */
export function overCap(
  limits: SandboxLimits,
  caps: WorkerCaps,
  gpuSlots: number,
): { readonly limit: keyof SandboxLimits; readonly asked: number; readonly cap: number; readonly unit: string } | null {
  for (const { limit, unit } of CAPPED)
    if (limits[limit] > caps[limit]) return { limit, asked: limits[limit], cap: caps[limit], unit };
  if (limits.gpus > gpuSlots) return { limit: "gpus", asked: limits.gpus, cap: gpuSlots, unit: " GPU(s)" };
  return null;
}

/** The job's data if it has the right shape and limits within the caps; else QueueJobRefusedError. */
export function acceptJob(data: unknown, caps: WorkerCaps, gpuSlots: number): QueueJobData {
  const parsed = QueueJobSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "job"}: ${i.message}`).join("; ");
    throw new QueueJobRefusedError(`the job is malformed (${issues})`, "invalid-job");
  }
  try {
    resolveLimits(parsed.data.limits);
  } catch (e) {
    throw new QueueJobRefusedError(`the job's limits are invalid: ${(e as Error).message}`, "invalid-job");
  }
  const over = overCap(parsed.data.limits, caps, gpuSlots);
  if (over) {
    const raise = over.limit === "gpus" ? "more GPU slots (the worker's gpus option)" : `a higher caps.${over.limit}`;
    throw new QueueJobRefusedError(
      `the job asks for ${over.limit}=${over.asked}${over.unit}, over this worker's cap of ${over.cap}${over.unit}; ` +
        `ask for less, or start workers with ${raise}`,
      "over-cap",
      over.limit,
    );
  }
  return parsed.data;
}

/** A refusal as the job's failure text in Redis: `refused (<reason>[ <limit>]): <message>`. */
export function refusalText(e: QueueJobRefusedError): string {
  return `refused (${e.reason}${e.limit ? ` ${e.limit}` : ""}): ${e.message}`;
}

/**
 * A job's failure text back as the worker's refusal, or null for any other failure. Anyone who can write to
 * Redis can write that text, so the refusal shows it as quoted data on one line (quoteFailure).
 */
export function parseRefusal(failedReason: string, jobId: string): QueueJobRefusedError | null {
  const m = /^refused \((unauthenticated|invalid-job|over-cap|unknown-task|other-package)(?: (\w+))?\): /.exec(
    failedReason,
  );
  if (!m) return null;
  const text = quoteFailure(failedReason.slice(m[0].length));
  return new QueueJobRefusedError(`A worker refused queue job ${jobId}: ${text}`, m[1] as QueueRefusal, m[2]);
}
