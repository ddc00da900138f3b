// kit/evo: long-horizon search (the paper's Fig. 5): OpenMLE-Evo with experience cards, three-factor selection and
// operator-conditioned memory; the AIRA-Evo, AIDE greedy and MCTS baselines; Evo-Max; resume.
export { evolve, type EvolveOptions, type EvolveResult } from "./evolve.js";
export { stepRng } from "./node-step.js";
export {
  EvolveConfig, EVOLVE_MAX, EVOLVE_PRESETS, HARNESSES, upgradeStoredConfig, type Harness, type EvolveConfigInput,
  type EvolvePreset,
} from "./config.js";
export type { EvoEvent } from "./events.js";
export type { EvoNode, Action } from "./types.js";
export { summarise, champion, type RunSummary } from "./run-summary.js";
export {
  threeFactorSelection, selectionWeights, ThreeFactorConfig, SELECTION_PRESETS, type SelectionCandidate,
  type SelectionScores, type SelectionWeights,
} from "./three-factor-selection.js";
export { fitnessSoftmax, globalNormalisedFitness, AIRA_NEUTRAL_FITNESS } from "./fitness-selection.js";
export { softmax, minMax, rankNormalise } from "./softmax.js";
export { evoStep, parentProbabilities, type StepInput } from "./evo-step.js";
export { aideStep, AIDE_DEFAULTS, type AideLimits } from "./aide-step.js";
export { mctsStep, mctsStats, normaliseQ, uct, MctsConfig, MCTS_DEFAULTS, type MctsLimits } from "./mcts-step.js";
export {
  debugDecision, debugChain, debugDepth, terminalCategory, TERMINAL_FAILURES, type DebugChainLimits,
} from "./debug-chain.js";
export { admits, islandMembers, loopGeneration, childLineageDepth } from "./islands.js";
export { detectImports, detectMethodFamily, METHOD_FAMILIES, type MethodFamily } from "./method-family.js";
export { buildCard, cardSummary, sandboxReward, type ExperienceCard } from "./experience-card.js";
export { experienceBoard, BOARD_QUERIES, type ExperienceBoard } from "./board-store.js";
export { renderBoard } from "./board.js";
export { boardLines, shownBoard, underExplored, UNDER_EXPLORED_MAX_TRIES } from "./board-lines.js";
export {
  selectContext, selectedIds, conditionedContext, historyContext, nodeUtilities, topSiblings, relatedNodes,
  exploredIdeas, exploredIdeaNodes, DEFAULT_CONTEXT_LIMITS,
  type ContextSelection, type ContextLimits, type ContextExtras,
} from "./context.js";
export { airaContext, airaMemoryNodes, airaMemoryEntry } from "./aira-memory.js";
export { shownNode, gainOverParents } from "./shown-node.js";
export { shownSynthesis, SYNTHESIS_MAX_ITEMS } from "./shown-synthesis.js";
export { buildContext, contextChars } from "./build-context.js";
export { synthesizeMemory, memoryPrompt } from "./memory-synthesis.js";
export { distillPriors } from "./priors.js";
export { loadNodes } from "./node-store.js";
export { nodeTiming, kitShare, type NodeTiming } from "./node-timing.js";
export { EvoError, ResumeError, EvoConfigError } from "./errors.js";
// Typed reads of evo's tables for the layers above (erl, the CLI).
export {
  readStoredRun, endedRunIds, runHasSuccess, meanDraftValidScore, taskNodesWithCode, type StoredRunRow,
  type TaskNodeRow,
} from "./stored-runs-store.js";
export { readJudgeCache, writeJudgeCache, type JudgeCacheEntry } from "./judge-cache-store.js";
export {
  runNodeCounts, countRuns, nodeTableRow, nodeIdsOfRun, cardTableRow, familyBoard, type RunNodeCounts,
  type NodeTableRow, type CardTableRow, type FamilyBoardRow,
} from "./run-view-store.js";
