// kit/sandbox: run programs against tasks in isolation and return execution records (docs/paper-map.md: Sandbox
// feedback modes).
export {
  FEEDBACK_MODES, type FeedbackMode, type SandboxLimits, type ExecutionRecord, type ExecutionRecordExtras,
  type SandboxJob,
} from "./types.js";
export { runSandbox, SUBMISSION_FILES, type RunSandboxOptions, type SandboxEvent, type Scorer } from "./run-sandbox.js";
export { classifyExecution, scoringSignature, type ProcessOutcome, type Classification } from "./classify.js";
export { parseValidationScore } from "./parse-score.js";
export { extractPythonFailure, runtimeSignature } from "./traceback.js";
export { DEFAULT_LIMITS, resolveLimits } from "./limits.js";
export { codeHash, idempotencyKey, type KeyParts } from "./idempotency-key.js";
export { sandboxedScorer, DEFAULT_SCORER_LIMITS, type ScorerLimits } from "./sandboxed-scorer.js";
export {
  persistentScorer, type PersistentScorer, type PersistentScorerOptions, type ScorerEvent, type ScorerStopReason,
} from "./persistent-scorer.js";
export { submissionCaps, checkSubmission, type SubmissionCaps } from "./submission-caps.js";
export { submissionPrint, predictionRows, type SubmissionPrint } from "./submission-print.js";
export { csvHeaderColumns } from "./csv-header-columns.js";
export { diskUsage, watchDiskQuota, quotaMessage, type DiskUsage, type DiskQuota } from "../jail/disk-quota.js";
export { sandboxHostUser, lookupUser, SANDBOX_USER_NAME, type HostUser } from "../jail/sandbox-user.js";
export {
  SANDBOX_WORKDIR, SANDBOX_DATA_DIR, MAX_JOB_FILES, sandboxEnv, type Executor, type ExecSpec, type ExecResult,
} from "./executor.js";
export { LocalExecutor, probeBwrap, UNSAFE_WARNING, type LocalExecutorOptions } from "./local-executor.js";
export { WarmExecutor, WarmStartConfig, type WarmExecutorOptions } from "./warm-executor.js";
export { DockerExecutor, DEFAULT_IMAGE, type DockerExecutorOptions } from "./docker-executor.js";
export { importHostPythonImage } from "./docker-image.js";
export { ensureDockerEngine, type EngineHandle } from "./docker-engine.js";
export { SANDBOX_STARTS, type SandboxStart } from "./sandbox-start.js";
export { createExecutor, EXECUTORS, type ExecutorName, type ExecutorSettings } from "./make-executor.js";
export { SandboxPool, DONE_CACHE_SIZE, type PoolOptions } from "./scheduler.js";
export {
  SandboxQueueClient, CPU_QUEUE, GPU_QUEUE, QUEUE_BACKEND, SUBMIT_TRIES, type QueueSubmit, type QueueClientOptions,
  type QueueClientEvent,
} from "./queue-client.js";
export { QueueWaitConfig } from "./queue-wait.js";
export { QueueRecordSchema, readQueueRecord } from "./queue-record.js";
export {
  startSandboxWorker, MAX_STALLED_RETRIES, type WorkerOptions, type WorkerEvent, type SandboxWorker,
} from "./queue-worker.js";
export {
  DEFAULT_MAX_JOB_BYTES, DEFAULT_MAX_RECORD_BYTES, MAX_QUEUE_FIELD_BYTES, quoteFailure,
} from "./queue-bounds.js";
export {
  openSandboxBackend, withSandboxBackend, queueEvaluate, checkSandboxStart, SEARCH_BACKENDS, type Evaluate,
  type SearchBackend, type SandboxBackend, type SandboxBackendOptions,
} from "./sandbox-backend.js";
export {
  QUEUE_KEY_ENV, MIN_QUEUE_KEY_CHARS, resolveQueueKey, signJob, verifyJob, sealRecord, openRecord, jobDataHash,
  sealRefusal, openRefusal, type QueueKeySource, type SealedRecord,
} from "./queue-auth.js";
export {
  QueueJobSchema, resolveWorkerCaps, overCap, acceptJob, type QueueJobData, type WorkerCaps,
} from "./queue-job.js";
export {
  writeExecution, findExecution, executionRow, testScoresByCode, recordToRow, rowToRecord, type ExecutionRow,
} from "./record-store.js";
export { SandboxConfig } from "./config.js";
export {
  SandboxError, SandboxUnavailableError, SandboxConfigError, SandboxCancelledError, DockerUnavailableError,
  QueueKeyError, QueueAuthError, QueueRecordError, QueueWaitError, QueueJobRefusedError, type QueueRefusal,
} from "./errors.js";
