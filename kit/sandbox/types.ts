import type { TaskPackage } from "../gym/types.js";
import type { SubmissionPrint } from "./submission-print.js";

/** The six feedback modes of docs/paper-map.md: Sandbox feedback modes. */
export const FEEDBACK_MODES = [
  "success",
  "runtime_error",
  "missing_code",
  "missing_submission",
  "scoring_failure",
  "timeout",
] as const;
export type FeedbackMode = (typeof FEEDBACK_MODES)[number];

export interface SandboxLimits {
  /** Wall-clock limit in seconds; the whole process tree is killed past it. */
  readonly timeoutS: number;
  /** Memory cap in MiB. */
  readonly memoryMb: number;
  /** CPU threads the program may use (thread-count environment variables). */
  readonly cpus: number;
  /** GPUs requested (0 = CPU job). */
  readonly gpus: number;
  /** Disk quota of the job folder in MiB (bytes allocated there; past it the job is killed: disk_quota). */
  readonly diskMb: number;
}

/** One execution: plain, readonly, goes straight into the executions table. */
export interface ExecutionRecord extends ExecutionRecordExtras {
  readonly executionId: string;
  readonly idempotencyKey: string;
  readonly taskId: string;
  readonly backend: string;
  readonly status: FeedbackMode;
  /** Parsed from the program's `Final Validation Score:` line. */
  readonly validScore: number | null;
  /** The task's hidden metric on the submission; never visible to the program. */
  readonly testScore: number | null;
  readonly errorType: string | null;
  /** Groups failures: timeout, submission_missing, import_error, column_mismatch, metric_parse_failed, sandbox_error,
   * ... */
  readonly errorSignature: string | null;
  readonly traceback: string | null;
  readonly stdoutTail: string;
  readonly stderrTail: string;
  readonly wallS: number;
  readonly cpuS: number;
  readonly peakMemMb: number | null;
  readonly artifacts: readonly string[];
  readonly codeHash: string;
  readonly limits: SandboxLimits;
  readonly startedAt: Date;
  readonly endedAt: Date;
}

export interface SandboxJob {
  readonly task: TaskPackage;
  /** The program (code/main.py); null or empty → missing_code. */
  readonly code: string | null;
  readonly limits?: Partial<SandboxLimits>;
  readonly priority?: number;
  readonly runId?: string;
  readonly nodeId?: string;
}

/** Optional extras a record may carry (kept out of the executions table unless a column exists). */
export interface ExecutionRecordExtras {
  readonly runId?: string;
  readonly nodeId?: string;
  /** Process exit code (null when killed by a signal or never started). */
  readonly exitCode?: number | null;
  /** Signal that ended the process (e.g. SIGKILL), when one did. */
  readonly exitSignal?: string | null;
  /** Host folder of the job (kept only when the executor was asked to keep it). */
  readonly workDir?: string;
  /** Queue backend: id of the worker that produced the record. */
  readonly worker?: string;
  /** Seconds the hidden-test scorer took on this run (absent when nothing was scored). */
  readonly scoringS?: number;
  /** The submission's prediction rows, hashed (submission-print.ts); absent when it was not scored. */
  readonly submissionPrint?: SubmissionPrint;
  /** Non-fatal notes: metric_parse_failed, unsafe mode, output truncated. */
  readonly warnings?: readonly string[];
}
