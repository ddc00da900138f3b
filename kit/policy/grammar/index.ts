// The embedded LLM-free program-grammar policy (the offline default).
export {
  createGrammarPolicy, createCheckpointPolicy, grammarPolicyName, logProb, replayChoices, runGrammarOperator,
  type GrammarOutput, type GrammarPolicy,
} from "./grammar-policy.js";
export {
  defaultGrammarParams, handSetGrammarParams, uniformGrammarParams, withoutContextFeatures,
} from "./default-params.js";
export {
  logSoftmax, decisionLogits, choiceLogProb, choiceDistribution, genericDecision, optionKey, usesContext,
  paramsFromJson, paramsToJson, GrammarParamsError, type GrammarChoice, type GrammarParams,
} from "./params.js";
export { gradientStep, type GradientOptions } from "./gradient-step.js";
export { contextEvidence, type ContextEvidence, type FamilyEvidence } from "./context-evidence.js";
export {
  familyOptionFeatures, editOptionFeatures, whichModelFeatures, crossoverModeFeatures, repairFeatures, cardFamilyOf,
  ContextFeatureConfig, type OptionFeatures,
} from "./option-features.js";
export { decisionFeatures, shapeFeatures, parentFeatures } from "./decision-features.js";
export { Chooser, GrammarReplayError, type TraceStep } from "./chooser.js";
export { renderProgram, traceFromProgram } from "./render-program.js";
export { describeSpec } from "./describe-spec.js";
export { draftSpec, safeSpec, normaliseSpec } from "./draft.js";
export { improveSpec, applicableEdits, IMPROVE_EDITS, type ImproveEdit } from "./improve.js";
export { crossoverSpecs, unionFeatures, CROSSOVER_MODES } from "./crossover.js";
export {
  classifyFailure, debugSpec, applicableRepairs, REPAIRS_BY_KIND, FAILURE_KINDS, DEBUG_REPAIRS, type FailureKind,
  type DebugRepair,
} from "./debug.js";
export { taskShape, familiesFor, type TaskShape } from "./task-shape.js";
export { PARAM_GRIDS, defaultModel } from "./model-grid.js";
export {
  methodFamily, isSolutionSpec, specChange, MODEL_FAMILIES, type SolutionSpec, type ModelSpec, type FeatureSpec,
  type ModelFamily,
} from "./spec.js";
export {
  fitContextWeights, weightsTable, FitContextConfig, type FittedWeight, type LabelledOutcome,
} from "./fit-context-weights.js";
