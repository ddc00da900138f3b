// The kit's high-level API. Notebooks: `import { ... } from "openmle"`.
// Layers are re-exported as namespaces so each one's API stays on one screen.
export * as store from "./store/index.js";
export { openWorkspace, toArrow, fromArrow, toDanfo, exportParquet, importParquet, configHash } from "./store/index.js";
export * as report from "./report/index.js";
export { notebookFigure, figureHtml, htmlTable, type Figure } from "./report/index.js";
export * as llm from "./llm/index.js";
export { createOpenAIModel, recordingModel, startReplayServer, replies, LlmConfig } from "./llm/index.js";
export * as policy from "./policy/index.js";
export { createLlmPolicy, buildPrompt, renderPrompt, parseReply } from "./policy/llm/index.js";
export * as evaluation from "./eval/index.js";
export {
  evaluate, evaluateRuns, gradeScore, summarizeGrades, loadLiteLeaderboard, loadLeaderboardFile, liteCompetitionIds, medalPositions,
  humanRank, natureBench, instanceGap, normalizedScore, searchEfficiency, loadSearchEfficiency, meanStd,
} from "./eval/index.js";
export { writeReport } from "./report/index.js";
export * as gym from "./gym/index.js";
export { loadTask, resolveTask, scoreSubmission, buildTask, listBuiltinTasks, type TaskPackage, type TaskMeta, type ScoreResult } from "./gym/index.js";
export * as sandbox from "./sandbox/index.js";
export { runSandbox, SandboxPool, SandboxQueueClient, startSandboxWorker, LocalExecutor, DockerExecutor, FEEDBACK_MODES, type ExecutionRecord, type SandboxLimits, type FeedbackMode } from "./sandbox/index.js";
export * as evo from "./evo/index.js";
export { evolve, experienceBoard, threeFactorSelection, EvolveConfig, type EvolveResult, type EvoEvent, type RunSummary } from "./evo/index.js";
export { createGrammarPolicy, logProb as grammarLogProb } from "./policy/grammar/index.js";
export { createRng, sampleIndex, type Rng } from "./util/index.js";
