// kit/experiment: registered experiments (issue 60). A plan fixed in advance (arms, tasks, level, measures, the
// decision rule) is resolved and hashed at registration, run exactly and resumably, and its results read only with
// every read logged. The sealed suite:confirm runs and is read only through here.
export {
  ExperimentError, PlanError, RegistrationNotFoundError, PlanDriftError, TrainingOverlapError,
} from "./errors.js";
export {
  ExperimentPlan, PlanArm, PlanLevel, DecisionRule, ResolvedPlan, ResolvedArm, ResolvedTask, ArmPolicy, MEASURES,
  BUILTIN_PARAM_SETS, SEARCH_HARNESSES, EVO_MAX_WORKERS, parsePlan, readPlanFile, parseResolvedPlan,
  type Measure, type SearchHarness, type ExperimentPlanInput,
} from "./experiment-plan.js";
export {
  planHash, registrationId, isRegistrationRequired, registrationLabel, resultLabel, nextRun, isFirstCompleted, look,
  disjointFromTraining, type RegistrationLabel, type RunState, type Look, type TrainingOverlap,
} from "./registration.js";
export {
  Z_975, Z_80, sampleVariance, withinTaskVariance, betweenTaskVariance, minimumDetectableEffect, winRateMde,
  powerEstimate, powerLine, type DevValue, type PowerEstimate,
} from "./power.js";
export {
  drawValue, taskValues, taskDiffs, armMeasures, decide, type CellOutcome, type Medal, type Verdict,
} from "./arm-measures.js";
export {
  summarizeCells, taskLines, verdictLine, type ExperimentSummary, type TaskLine,
} from "./experiment-summary.js";
export { paramsHash, policyKey, type LlmPolicyFactory } from "./arm-policy.js";
export { checkpointTrainingTasks } from "./training-tasks.js";
export { taskLeaderboards, gradeOn } from "./task-leaderboards.js";
export { resolvePlan, readIndexOrNull, type Resolution, type ResolveOptions } from "./resolve-plan.js";
export { registrationPower } from "./dev-power.js";
export { registerExperiment, type Registration, type RegisterOptions } from "./register-experiment.js";
export {
  runExperiment, loadRegistration, type ExperimentEvent, type RunExperimentOptions, type RunExperimentResult,
} from "./run-experiment.js";
export {
  readExperimentResults, experimentHistory, resolveExperimentId, type ExperimentResults, type RegistrationHistory,
} from "./experiment-results.js";
export { kitCommit } from "./kit-commit.js";
export type { RegistrationRow, ExperimentRunRow, ResultRow } from "./experiment-store.js";
