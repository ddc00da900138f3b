import type { TaskPackage } from "../../gym/types.js";
import type { TraceStep } from "./chooser.js";
import {
  alignToSample,
  combine,
  composeProgram,
  convexStack,
  docstring,
  featureColumns,
  featureFragments,
  featurise,
  finalScore,
  fitPredict,
  folds,
  forwardOutOfFold,
  groupSplits,
  honestFoldData,
  iidFoldData,
  iidOutOfFold,
  imports,
  latestRows,
  linearStacker,
  metaModel,
  modelFragments,
  modelImports,
  randomRows,
  readTables,
  refit,
  renderMetric,
  scoreFragment,
  section,
  settings,
  stackMatrix,
  stacks,
  submissionColumns,
  target,
  timeSeriesStacker,
  timeSplits,
  traceComment,
  TRACE_PREFIX,
  unseenGroups,
  validateModels,
  wantsProbability,
  writeSubmission,
  type Fragment,
  type PyImport,
  type RenderedMetric,
  type Stacker,
} from "./fragments/index.js";
import type { SolutionSpec } from "./spec.js";

export interface RenderOptions {
  readonly plan?: string;
  readonly trace?: readonly TraceStep[];
}

/**
 * Render a spec into a complete main.py following the program contract: reads DATA_DIR, writes
 * submission.csv (sample submission's columns and ids) in the working directory, and prints
 * `Final Validation Score: <float>`. The decision trace, when given, is kept as a last comment line
 * so `logProb` can re-score the program later. Throws FragmentOrderError when the spec's parts do
 * not fit together (a fragment would read a name nothing before it defines).
 */
export function renderProgram(spec: SolutionSpec, task: TaskPackage, opts: RenderOptions = {}): string {
  return composeProgram(programFragments(spec, task, opts));
}

/** The fragments of the spec's program: the time-series composition for time series, else the i.i.d. one. */
export function programFragments(spec: SolutionSpec, task: TaskPackage, opts: RenderOptions = {}): Fragment[] {
  return spec.modality === "time_series" ? timeSeriesProgram(spec, task, opts) : iidProgram(spec, task, opts);
}

/** Rows are exchangeable: random subsample, validation by (group) holdout or k-fold, a linear stacker. */
function iidProgram(spec: SolutionSpec, task: TaskPackage, opts: RenderOptions): Fragment[] {
  const metric = taskMetric(spec, task);
  const stacker = linearStacker(spec);
  return [
    ...prelude(spec, task, opts, metric, stacker),
    section("2. Data"),
    readTables(task),
    randomRows,
    featureColumns,
    section("3. Target"),
    target,
    scoreFragment(metric),
    section("4. Features"),
    ...featureFragments(spec.features),
    section("5. Models"),
    ...modelFragments(spec),
    fitPredict,
    section("6. Validation"),
    unseenGroups,
    groupSplits,
    stackMatrix,
    metaModel(stacker, stacks(spec)),
    combine,
    featurise,
    folds,
    iidFoldData,
    validateModels,
    iidOutOfFold,
    finalScore,
    ...submission(opts),
  ];
}

/**
 * Rows are ordered in time: the latest rows kept, a time-ordered holdout featurised like the test set,
 * and a stacker fitted forward in time (convex weights for values).
 */
function timeSeriesProgram(spec: SolutionSpec, task: TaskPackage, opts: RenderOptions): Fragment[] {
  const metric = taskMetric(spec, task);
  const stacker = timeSeriesStacker(spec);
  return [
    ...prelude(spec, task, opts, metric, stacker),
    section("2. Data"),
    readTables(task),
    latestRows,
    featureColumns,
    section("3. Target"),
    target,
    scoreFragment(metric),
    section("4. Features"),
    ...featureFragments(spec.features),
    section("5. Models"),
    ...modelFragments(spec),
    fitPredict,
    section("6. Validation"),
    timeSplits,
    stackMatrix,
    ...(spec.taskType === "classification" ? [] : [convexStack(stacks(spec))]),
    metaModel(stacker, stacks(spec)),
    combine,
    featurise,
    folds,
    honestFoldData,
    validateModels,
    forwardOutOfFold,
    finalScore,
    ...submission(opts),
  ];
}

/**
 * The task's metric. A paper-format package names its metric by its class; metricKind is the metric
 * that class computes.
 */
function taskMetric(spec: SolutionSpec, task: TaskPackage): RenderedMetric {
  return renderMetric(task.meta.metricKind ?? task.meta.metric, task.meta.higherIsBetter, spec.taskType);
}

/** Docstring, imports (the models', and the stacker's when the program stacks) and settings. */
function prelude(
  spec: SolutionSpec,
  task: TaskPackage,
  opts: RenderOptions,
  metric: RenderedMetric,
  stacker: Stacker,
): Fragment[] {
  const m = task.meta;
  const probaSingle =
    spec.taskType === "classification" && m.targetColumns.length === 1 && wantsProbability(m.metricKind ?? m.metric);
  const extra: PyImport[] = modelImports(spec);
  if (stacks(spec) && !extra.some((i) => i.line === stacker.import.line)) extra.push(stacker.import);
  return [
    docstring(task, spec, opts.plan),
    imports(extra),
    section("1. Settings"),
    settings(spec, task, metric, probaSingle),
  ];
}

/** Refit, submission, and the decision trace when there is one. */
function submission(opts: RenderOptions): Fragment[] {
  return [
    section("7. Refit on all training rows and predict the test set", 78),
    refit,
    section("8. Submission", 79),
    submissionColumns,
    alignToSample,
    writeSubmission,
    ...(opts.trace ? [traceComment(opts.trace)] : []),
  ];
}

/** The decision trace embedded in a rendered program, or null when it has none. */
export function traceFromProgram(code: string): TraceStep[] | null {
  const line = code
    .split("\n")
    .reverse()
    .find((l) => l.startsWith(TRACE_PREFIX));
  if (!line) return null;
  const pairs = JSON.parse(line.slice(TRACE_PREFIX.length)) as [string, string][];
  return pairs.map(([name, value]) => ({ name, value }));
}
