import { randomUUID } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Workspace } from "../store/index.js";
import { metricRange, packageHash, scoreSubmission, type TaskPackage } from "../gym/index.js";
import { listArtifacts } from "./artifacts.js";
import { classifyExecution, type ScoreResult } from "./classify.js";
import { SandboxCancelledError, SandboxUnavailableError } from "./errors.js";
import type { Executor } from "./executor.js";
import { codeHash, idempotencyKey } from "./idempotency-key.js";
import { resolveLimits } from "./limits.js";
import { LocalExecutor, probeBwrap } from "./local-executor.js";
import { persistentScorer } from "./persistent-scorer.js";
import { sandboxedScorer } from "./sandboxed-scorer.js";
import { checkSubmission, submissionCaps } from "./submission-caps.js";
import { submissionPrint, type SubmissionPrint } from "./submission-print.js";
import { findExecution, writeExecution } from "./record-store.js";
import { jobDirPrefix, sweepStaleJobDirs } from "./stale-jobs.js";
import type { ExecutionRecord, SandboxJob } from "./types.js";

/** Progress events (the CLI and notebooks decide how to show them). */
export type SandboxEvent =
  | { readonly type: "exec-start"; readonly executionId: string; readonly taskId: string; readonly backend: string }
  | { readonly type: "exec-reused"; readonly record: ExecutionRecord }
  | { readonly type: "exec-end"; readonly record: ExecutionRecord }
  | { readonly type: "warning"; readonly message: string };

export type Scorer = (task: TaskPackage, submissionCsv: string) => Promise<ScoreResult>;

export interface RunSandboxOptions extends SandboxJob {
  /** Backend (default: a shared LocalExecutor, which refuses to run without bubblewrap). */
  readonly executor?: Executor;
  /** When given, the record is stored in its executions table, and a stored record with the same key is returned
   * instead of re-running. */
  readonly workspace?: Workspace;
  /** Skip the idempotency lookup (default false). */
  readonly rerun?: boolean;
  /**
   * Hidden-test scorer (default: the task's utils/metric.py against data/private, run in a
   * long-lived sandbox of its own per task, see persistent-scorer.ts; `OPENMLE_SCORER=per-node`
   * starts a fresh sandbox per submission instead, see sandboxed-scorer.ts; on the host only for
   * the unsafe local backend).
   */
  readonly scorer?: Scorer;
  /** Backend name in the idempotency key (default the executor's name; queue workers use "queue", as their clients do).
   */
  readonly keyBackend?: string;
  readonly signal?: AbortSignal;
  /** Keep job folders here (one per execution) instead of a temporary folder removed after the run. */
  readonly jobsDir?: string;
  /** Bytes of stdout/stderr kept per stream (default 64 KiB). */
  readonly outputCapBytes?: number;
  readonly onEvent?: (e: SandboxEvent) => void;
  /** Extra environment for the program (the pool sets CUDA_VISIBLE_DEVICES to the GPUs it assigned). */
  readonly env?: Readonly<Record<string, string>>;
}

let defaultExecutor: Executor | undefined;
function getDefaultExecutor(): Executor {
  return (defaultExecutor ??= new LocalExecutor());
}

let defaultScorer: Scorer | undefined;
/**
 * The persistent sandboxed scorer (`OPENMLE_SCORER=per-node`: one sandbox per submission); the host
 * scorer only where programs themselves run without isolation.
 */
function getDefaultScorer(executor: Executor): Scorer {
  if (executor.name === "local-unsafe") return scoreSubmission;
  if (defaultScorer) return defaultScorer;
  const why = probeBwrap();
  if (why)
    throw new SandboxUnavailableError(
      `Scoring runs the task's metric.py in a bubblewrap sandbox, which is ` +
        `unavailable: ${why}. Install bubblewrap, or pass a scorer.`,
    );
  return (defaultScorer = process.env.OPENMLE_SCORER === "per-node" ? sandboxedScorer() : persistentScorer());
}

/** Names the program's submission may have, relative to its working directory. */
export const SUBMISSION_FILES = ["submission.csv", "submission/submission.csv"];

/**
 * Run one program against a task and return its execution record (docs/paper-map.md: Sandbox feedback modes):
 * 1. resolve limits and the idempotency key; a stored record with that key is returned as is;
 * 2. no code → missing_code without running anything;
 * 3. write code/main.py into a fresh job folder and run it on the executor;
 * 4. check submission.csv's size and header against the task's caps, then score it with the
 *    task's hidden metric in the scorer's own sandbox;
 * 5. classify into one of the six feedback modes (a validation score outside the metric's range
 *    counts as none: score_out_of_range), store and return the record.
 */
export async function runSandbox(opts: RunSandboxOptions): Promise<ExecutionRecord> {
  const limits = resolveLimits(opts.limits);
  const taskId = opts.task.meta.id;
  const hasCode = !!opts.code && opts.code.trim() !== "";
  const executor = hasCode ? (opts.executor ?? getDefaultExecutor()) : opts.executor;
  const key = idempotencyKey({
    taskId,
    taskHash: packageHash(opts.task.dir),
    code: opts.code,
    limits,
    backend: opts.keyBackend ?? executor?.name ?? "local",
  });
  if (opts.workspace && !opts.rerun) {
    const stored = await findExecution(opts.workspace, key);
    if (stored) {
      opts.onEvent?.({ type: "exec-reused", record: stored });
      return stored;
    }
  }
  const executionId = randomUUID();
  const startedAt = new Date();
  const ids = { ...(opts.runId ? { runId: opts.runId } : {}), ...(opts.nodeId ? { nodeId: opts.nodeId } : {}) };
  const common = { executionId, idempotencyKey: key, taskId, codeHash: codeHash(opts.code), limits, startedAt, ...ids };

  if (!hasCode || !executor) {
    const c = classifyExecution({ codeMissing: true });
    const record: ExecutionRecord = {
      ...common,
      backend: opts.executor?.name ?? "local",
      status: c.status,
      validScore: null,
      testScore: null,
      errorType: c.errorType,
      errorSignature: c.errorSignature,
      traceback: null,
      stdoutTail: "",
      stderrTail: "",
      wallS: 0,
      cpuS: 0,
      peakMemMb: null,
      artifacts: [],
      endedAt: new Date(),
      exitCode: null,
      exitSignal: null,
      warnings: [],
    };
    return finish(opts, record);
  }

  const scorer = opts.scorer ?? getDefaultScorer(executor);
  opts.onEvent?.({ type: "exec-start", executionId, taskId, backend: executor.name });
  const keep = opts.jobsDir !== undefined;
  const root = resolve(opts.jobsDir ?? join(tmpdir(), "openmle-jobs"));
  mkdirSync(root, { recursive: true });
  if (!keep) sweepStaleJobDirs(root);
  const jobDir = keep ? join(root, executionId) : mkdtempSync(join(root, jobDirPrefix()));
  mkdirSync(join(jobDir, "code"), { recursive: true });
  writeFileSync(join(jobDir, "code", "main.py"), opts.code);
  try {
    const r = await executor.run({
      jobDir,
      publicDir: opts.task.publicDir,
      limits,
      outputCapBytes: opts.outputCapBytes ?? 64 * 1024,
      signal: opts.signal,
      env: opts.env,
    });
    if (r.cancelled)
      throw new SandboxCancelledError(
        `Execution ${executionId} of task ${taskId} was cancelled; its process tree was killed.`,
      );
    for (const w of r.warnings) opts.onEvent?.({ type: "warning", message: w });
    const submission = SUBMISSION_FILES.map((f) => join(jobDir, f)).find((f) => existsSync(f) || isLink(f));
    let score: ScoreResult | undefined;
    let scoringS: number | undefined;
    let print: SubmissionPrint | undefined;
    if (submission && r.exitCode === 0 && !r.timedOut && !r.sandboxError && !r.diskQuota) {
      const scoringStart = performance.now();
      try {
        // The scorer reads the file as the kit: a link could make it read host files (the answers).
        const tooBig = regularFileInside(jobDir, submission)
          ? checkSubmission(submission, submissionCaps(opts.task))
          : undefined;
        // What a caller without the job folder (a queue client) compares with the sample (submission-print.ts).
        if (tooBig === null) print = submissionPrint(readFileSync(submission, "utf8"));
        score =
          tooBig === undefined
            ? {
                ok: false,
                kind: "invalid",
                message:
                  "the submission is a symbolic link or lies outside the job folder; write a regular " +
                  "file submission.csv",
              }
            : tooBig !== null
              ? { ok: false, kind: "invalid", message: tooBig }
              : await scorer(opts.task, submission);
      } catch (e) {
        score = { ok: false, kind: "error", message: e instanceof Error ? e.message : String(e) };
      }
      scoringS = (performance.now() - scoringStart) / 1000;
    }
    const c = classifyExecution({
      codeMissing: false,
      outcome: r,
      submissionFound: !!submission,
      score,
      validRange: metricRange(opts.task.meta.metric),
    });
    const record: ExecutionRecord = {
      ...common,
      backend: executor.name,
      status: c.status,
      validScore: c.validScore,
      testScore: c.testScore,
      errorType: c.errorType,
      errorSignature: c.errorSignature,
      traceback: c.traceback,
      stdoutTail: r.stdout,
      stderrTail: r.stderr,
      wallS: r.wallS,
      cpuS: r.cpuS,
      peakMemMb: r.peakMemMb,
      artifacts: listArtifacts(jobDir),
      endedAt: new Date(),
      exitCode: r.exitCode,
      exitSignal: r.signal,
      warnings: [...r.warnings, ...c.warnings],
      ...(keep ? { workDir: jobDir } : {}),
      ...(scoringS === undefined ? {} : { scoringS }),
      ...(print ? { submissionPrint: print } : {}),
    };
    return await finish(opts, record);
  } finally {
    if (!keep) rmSync(jobDir, { recursive: true, force: true });
  }
}

async function finish(opts: RunSandboxOptions, record: ExecutionRecord): Promise<ExecutionRecord> {
  // Infrastructure failures (sandbox_error) are not stored: the idempotency key would replay them forever.
  const stored =
    opts.workspace && record.errorType !== "sandbox_error" ? await writeExecution(opts.workspace, record) : record;
  opts.onEvent?.({ type: "exec-end", record: stored });
  return stored;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A regular file (not a link) whose real path is inside the job folder. */
export function regularFileInside(jobDir: string, path: string): boolean {
  try {
    if (!lstatSync(path).isFile()) return false;
    return realpathSync(path).startsWith(`${realpathSync(jobDir)}/`);
  } catch {
    return false;
  }
}
