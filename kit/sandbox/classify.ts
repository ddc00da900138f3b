import type { ScoreResult } from "../gym/index.js";
import type { FeedbackMode } from "./types.js";
import { parseValidationScore, hasScoreLine } from "./parse-score.js";
import { extractPythonFailure, runtimeSignature } from "./traceback.js";

export type { ScoreResult };

/** How the process ended, as an executor reports it. */
export interface ProcessOutcome {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** The memory cap killed it (cgroup OOM counter, or a kill past the cap). */
  readonly oomKilled: boolean;
  /** The sandbox itself failed (could not start, bwrap error): the program never ran properly. */
  readonly sandboxError: string | null;
  /** The job folder passed its disk quota and the job was killed: the message. */
  readonly diskQuota?: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface Classification {
  readonly status: FeedbackMode;
  readonly validScore: number | null;
  readonly testScore: number | null;
  readonly errorType: string | null;
  readonly errorSignature: string | null;
  readonly traceback: string | null;
  readonly warnings: readonly string[];
}

/**
 * The feedback mode of one execution (docs/paper-map.md: Sandbox feedback modes), in this order:
 * 1. no code → missing_code; 2. past the time limit → timeout; 3. the sandbox failed →
 * runtime_error/sandbox_error; 4. past the job folder's disk quota → runtime_error/disk_quota;
 * killed by the memory cap or a non-zero exit → runtime_error
 * (signature from the exception); 5. exit 0 without submission.csv → missing_submission;
 * 6. the metric rejects or fails on it → scoring_failure; 7. else success. A success without a
 * parsable `Final Validation Score:` line keeps its status and gets the warning
 * (and signature) metric_parse_failed.
 *
 * The validation score is the program's own claim: one outside `validRange` (the task metric's
 * range, e.g. 1e308 for accuracy) cannot be true, so it becomes null, with the warning and, on a
 * success, the signature score_out_of_range. Null is what search and rewards already treat as
 * "no valid score" (no fitness, no admission, reward 0); clamping would instead turn the lie into
 * the metric's best value.
 */
export function classifyExecution(input: {
  codeMissing: boolean;
  outcome?: ProcessOutcome;
  submissionFound?: boolean;
  score?: ScoreResult;
  /** The task metric's [lowest, highest] values (gym's metricRange); null or absent: unknown, not checked. */
  validRange?: readonly [number, number] | null;
}): Classification {
  const base = { validScore: null, testScore: null, traceback: null, warnings: [] as string[] };
  if (input.codeMissing || !input.outcome) {
    return { ...base, status: "missing_code", errorType: "missing_code", errorSignature: "missing_code" };
  }
  const o = input.outcome;
  const reported = parseValidationScore(o.stdout);
  const outOfRange = reported !== null && !!input.validRange && !inRange(reported, input.validRange);
  const validScore = outOfRange ? null : reported;
  const failure = extractPythonFailure(o.stderr);
  const rangeWarning = outOfRange
    ? [
        `score_out_of_range: the program reported Final Validation Score ${reported}, outside the ` +
          `metric's range [${input.validRange![0]}, ${input.validRange![1]}]; it counts as no score`,
      ]
    : [];
  const withRun = { ...base, validScore, traceback: failure.excerpt, warnings: rangeWarning };
  if (o.timedOut) return { ...withRun, status: "timeout", errorType: "timeout", errorSignature: "timeout" };
  if (o.sandboxError)
    return {
      ...withRun,
      status: "runtime_error",
      errorType: "sandbox_error",
      errorSignature: "sandbox_error",
      traceback: o.sandboxError,
    };
  if (o.diskQuota)
    return {
      ...withRun,
      status: "runtime_error",
      errorType: "DiskQuotaExceeded",
      errorSignature: "disk_quota",
      traceback: o.diskQuota,
    };
  if (o.oomKilled)
    return { ...withRun, status: "runtime_error", errorType: "MemoryError", errorSignature: "memory_error" };
  if (o.exitCode !== 0) {
    const errorType = failure.exception ?? (o.signal ? `killed_by_${o.signal}` : `exit_code_${o.exitCode}`);
    const sig =
      failure.exception || !o.signal
        ? runtimeSignature(failure.exception, o.stderr)
        : `killed_by_${o.signal.toLowerCase()}`;
    return { ...withRun, status: "runtime_error", errorType, errorSignature: sig };
  }
  if (!input.submissionFound) {
    return {
      ...withRun,
      status: "missing_submission",
      errorType: "submission_missing",
      errorSignature: "submission_missing",
    };
  }
  const s = input.score;
  if (!s || !s.ok) {
    const message = s && !s.ok ? s.message : "no score";
    const signature = s && !s.ok && s.kind === "error" ? "metric_error" : scoringSignature(message);
    return {
      ...withRun,
      status: "scoring_failure",
      errorType: s && !s.ok ? `${s.kind}_submission` : "scoring_error",
      errorSignature: signature,
      traceback: message,
    };
  }
  if (outOfRange)
    return {
      ...withRun,
      status: "success",
      testScore: s.score,
      errorType: null,
      errorSignature: "score_out_of_range",
      traceback: null,
    };
  if (validScore === null) {
    const warning = hasScoreLine(o.stdout)
      ? "metric_parse_failed: the Final Validation Score line did not parse"
      : "metric_parse_failed: no Final Validation Score line";
    return {
      ...withRun,
      status: "success",
      testScore: s.score,
      errorType: null,
      errorSignature: "metric_parse_failed",
      warnings: [warning],
    };
  }
  return { ...withRun, status: "success", testScore: s.score, errorType: null, errorSignature: null, traceback: null };
}

/** Within [lo, hi], allowing floating-point noise of 1e-9 (a printed 1.0000000000000002 is 1). */
function inRange(v: number, [lo, hi]: readonly [number, number]): boolean {
  const eps = 1e-9 * Math.max(1, Math.abs(v));
  return v >= lo - eps && v <= hi + eps;
}

/** Signature of a validation message from a task's metric (messages vary; keywords do not). */
export function scoringSignature(message: string): string {
  if (/over the [\d.]+ \w+ cap/i.test(message)) return "submission_too_large";
  if (/\bnan\b|missing values?|null values?|contains? (?:empty|na)\b/i.test(message)) return "nan_in_submission";
  if (/column/i.test(message)) return "column_mismatch";
  if (/\brows?\b|length|shape|number of (?:lines|entries|predictions)/i.test(message)) return "row_count_mismatch";
  if (/\bids?\b|identifier/i.test(message)) return "id_mismatch";
  if (/pars|decode|empty|tokeniz|csv/i.test(message)) return "invalid_csv";
  return "invalid_submission";
}
