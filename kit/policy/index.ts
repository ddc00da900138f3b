// kit/policy: whatever writes programs for the four operators (docs/paper-map.md: Operators). One interface (types.ts);
// the embedded grammar policy (grammar/) and the LLM policy (llm/).
export {
  OPERATORS, type Operator, type NodeView, type OperatorContext, type Choice, type PolicyUsage, type PolicyOutput,
  type Policy, type ContextShown, type ShownNode, type ShownSection, type ShownBoard, type ShownSynthesis,
  type ShownRole, type ChangeKind, CHANGE_KINDS,
} from "./types.js";
export { renderShown, budgetLine, synthesisLines } from "./shown-context.js";
export {
  createLlmPolicy, LlmPolicyConfig, buildPrompt, operatorPromptChars, renderPrompt, parseReply, dataOverview,
  type LlmPolicy,
  type LlmPolicyConfigInput, type OperatorPrompt, type PromptNode, type ProgramContract, type ParsedReply,
} from "./llm/index.js";
export {
  createGrammarPolicy, createCheckpointPolicy, grammarPolicyName, logProb, defaultGrammarParams, gradientStep,
  paramsToJson, paramsFromJson, renderProgram, describeSpec, classifyFailure, REPAIRS_BY_KIND, methodFamily,
  isSolutionSpec, specChange, GrammarParamsError, GrammarReplayError, type GrammarParams, type GrammarChoice,
  type GrammarOutput, type SolutionSpec, type ModelSpec, type FeatureSpec, type FailureKind, type DebugRepair,
} from "./grammar/index.js";
export * as grammar from "./grammar/index.js";
