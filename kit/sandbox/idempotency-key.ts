import { createHash } from "node:crypto";
import { stableHash } from "../store/index.js";
import type { SandboxLimits } from "./types.js";

/** sha256 of the program text (first 16 hex digits); empty/absent code hashes as "". */
export function codeHash(code: string | null): string {
  return createHash("sha256")
    .update(code ?? "")
    .digest("hex")
    .slice(0, 16);
}

/** What makes two executions the same. */
export interface KeyParts {
  readonly taskId: string;
  /** The task package's content hash (gym's packageHash: data, metric, prepare, task.json). */
  readonly taskHash: string;
  readonly code: string | null;
  readonly limits: SandboxLimits;
  /** The backend that runs it: local, docker, or queue (whatever worker takes the job). */
  readonly backend: string;
}

/**
 * Same task package content, same code, same limits, same backend → same key → the stored record
 * is returned, no re-run. A package whose data or metric changed (a fixed metric.py), another
 * package under the same task id, or another backend gets a new key.
 */
export function idempotencyKey(p: KeyParts): string {
  return stableHash({
    taskId: p.taskId,
    taskHash: p.taskHash,
    codeHash: codeHash(p.code),
    limits: p.limits,
    backend: p.backend,
  });
}
