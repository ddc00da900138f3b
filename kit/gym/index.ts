// kit/gym: task packages (docs/paper-map.md: Task packages), buildTask, checks, the semantic gate, the built-in suite.
export type { TaskMeta, TaskPackage, ColumnInfo, Modality, TaskType } from "./types.js";
export { loadTask, packagePaths, inspectMetric, probeMetric, profilePublic, TASK_JSON } from "./load-task.js";
export { scoreSubmission, scoreMany, metricOptions, type ScoreResult, type ScoreCase } from "./score-submission.js";
export { resolveTask, taskCacheDir } from "./resolve-task.js";
export { packageHash, HASHED_PARTS } from "./package-hash.js";
export { ConfinedPathError, TreeLimits, type ConfinedRule } from "./confined-files.js";
export { listBuiltinTasks, buildBuiltinTask, getBuiltin, type BuiltinSummary } from "./builtin/build-builtin.js";
export { BUILTIN_TASKS, BUILTIN_IDS, type BuiltinTask, type BuiltinId, type RawSource } from "./builtin/registry.js";
export { buildTask, parseSpec, type BuildOptions, type BuildEvent } from "./build-task.js";
export { tableColumns, freshIdColumn } from "./table-columns.js";
export { PREPARE_CONFIG, prepareConfig, type PrepareConfig } from "./prepare-config.js";
export { TaskSpec, SplitSpec, type TaskSpecInput } from "./task-spec.js";
export {
  METRICS, METRIC_NAMES, getMetric, metricRange, type MetricName, type MetricDef, type OutputKind,
} from "./metrics/registry.js";
export { renderMetricPy } from "./metrics/metric-py.js";
export {
  inferMeta, inferHigherIsBetter, inferModality, inferTaskType, resolveMetricKind, metricKindFromProbe,
  type DataProfile, type MetricInfo,
} from "./infer-meta.js";
export { runPrepare } from "./run-prepare.js";
export { type SplitSpec as SplitSpecType } from "./task-spec.js";
export { PYTHON, projectRoot, pythonHelper } from "./python.js";
export {
  runHarness, trustPackages, configurePackageJail, PackageJailConfig, type HarnessJail,
} from "./package-harness.js";
export {
  GymError, TaskPackageError, MetricLoadError, TaskSpecError, PrepareError, UnknownTaskError, PythonError,
  PythonTimeoutError, PackageCodeError, PackageJailUnavailableError, type PackageStage,
} from "./errors.js";
export { checkTask, prepareDeterminism, type CheckOptions } from "./check-task.js";
export { metricChecks, verifyMetric, type VerifyOutput } from "./verify-metric.js";
export { METRIC_CHECKS, type CheckResult, type CheckStatus, type QualityReport } from "./check-result.js";
export {
  semanticGate, gatePrompt, renderGatePrompt, parseGateReply, gateVerdict, metricSmokeTest, GATE_AXES, GATE_THRESHOLDS,
  type GateAxis, type GateVerdict, type GatePrompt, type SemanticReview,
} from "./semantic-gate.js";
export { recordTaskReview } from "./record-review.js";
export { metricDirections } from "./metric-direction.js";
export {
  taskDirections, taskModalities, storedTaskDir, storedTaskPackages, type TaskRow, type TaskReviewRow,
} from "./task-store.js";
export { importMlebench, liteLeaderboardPath, liteCompetitions, leaderboardHigherIsBetter } from "./mlebench-import.js";
// The task corpus (issue 27): its own public API in corpus/index.ts.
export * from "./corpus/index.js";
