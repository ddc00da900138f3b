// The Python fragments grammar programs are composed of (render-program.ts lists them per program).
export { composeProgram, fragment, section, type Fragment, type PyImport } from "./fragment.js";
export { FragmentOrderError } from "./fragment-order-error.js";
export { docstring, imports, settings } from "./prelude.js";
export { readTables, randomRows, latestRows, featureColumns, target } from "./data.js";
export { renderMetric, wantsProbability, scoreFragment, KNOWN_METRICS, type RenderedMetric } from "./metric.js";
export { featureFragments } from "./features.js";
export { modelImports, modelFragments, fitPredict } from "./models.js";
export {
  unseenGroups, groupSplits, timeSplits, folds, iidFoldData, honestFoldData, validateModels, finalScore,
} from "./validation.js";
export {
  stacks, stackMatrix, convexStack, linearStacker, timeSeriesStacker, metaModel, combine, iidOutOfFold,
  forwardOutOfFold, type Stacker,
} from "./ensemble.js";
export { featurise, refit } from "./fit.js";
export { submissionColumns, alignToSample, writeSubmission, traceComment, TRACE_PREFIX } from "./submission.js";
