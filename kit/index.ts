// The kit's public API. Notebooks: `import { ... } from "openmle"`.
// The high-level calls first, then each layer as a namespace (its own index.ts is its whole API).

// High-level calls, bottom layer to top.
export {
  buildTask, resolveTask, loadTask, scoreSubmission, listBuiltinTasks, buildCorpus, ensureCorpus, expandTaskList,
  type TaskPackage, type TaskMeta, type ScoreResult,
} from "./gym/index.js";
export {
  runSandbox, SandboxPool, SandboxQueueClient, startSandboxWorker, LocalExecutor, DockerExecutor, FEEDBACK_MODES,
  type ExecutionRecord, type SandboxLimits, type FeedbackMode,
} from "./sandbox/index.js";
export { createGrammarPolicy, logProb as grammarLogProb } from "./policy/grammar/index.js";
export { createLlmPolicy, buildPrompt, renderPrompt, parseReply } from "./policy/llm/index.js";
export {
  evolve, experienceBoard, threeFactorSelection, EvolveConfig, type EvolveResult, type EvoEvent, type RunSummary,
} from "./evo/index.js";
export {
  collectSft, sftTrain, loadCheckpoint, resolvePolicyParams, type CollectSftResult, type SftExample,
} from "./erl/index.js";
export { trainRL, RlConfig, exportRollouts, type TrainRlResult, type RlEvent } from "./erl/index.js";
export { loop, LoopConfig, type LoopOptions, type LoopResult, type LoopEvent } from "./erl/index.js";
export {
  evaluate, evaluateRuns, gradeScore, summarizeGrades, loadLiteLeaderboard, loadLeaderboardFile, liteCompetitionIds,
  medalPositions, humanRank, natureBench, instanceGap, normalizedScore, searchEfficiency, loadSearchEfficiency, meanStd,
  loadRunStats, runStatsFrames, type RunStats,
} from "./eval/index.js";
export {
  registerExperiment, runExperiment, readExperimentResults, experimentHistory, readPlanFile,
} from "./experiment/index.js";
export { writeReport, notebookFigure, figureHtml, htmlTable, corpusFunnelFigure, type Figure } from "./report/index.js";
export { createOpenAIModel, recordingModel, startReplayServer, replies, LlmConfig } from "./llm/index.js";
export { openWorkspace, toArrow, fromArrow, toDanfo, exportParquet, importParquet, configHash } from "./store/index.js";
export { createRng, sampleIndex, type Rng } from "./util/index.js";

// Layers as namespaces.
export * as store from "./store/index.js";
export * as gym from "./gym/index.js";
export * as sandbox from "./sandbox/index.js";
export * as llm from "./llm/index.js";
export * as policy from "./policy/index.js";
export * as evo from "./evo/index.js";
export * as erl from "./erl/index.js";
export * as evaluation from "./eval/index.js";
export * as report from "./report/index.js";
export * as reproduce from "./reproduce/index.js";
export * as experiment from "./experiment/index.js";
