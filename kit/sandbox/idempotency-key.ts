import { createHash } from "node:crypto";
import { stableHash } from "../store/index.js";
import type { SandboxLimits } from "./types.js";

/** sha256 of the program text (first 16 hex digits); empty/absent code hashes as "". */
export function codeHash(code: string | null): string {
  return createHash("sha256").update(code ?? "").digest("hex").slice(0, 16);
}

/** Same task, same code and same limits → same key → the stored record is returned, no re-run. */
export function idempotencyKey(taskId: string, code: string | null, limits: SandboxLimits): string {
  return stableHash({ taskId, codeHash: codeHash(code), limits });
}
