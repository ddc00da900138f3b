// kit/erl: execution-grounded training of policies from what evo stored (spec §3).
export {
  saveCheckpoint, loadCheckpoint, listCheckpoints, resolvePolicyParams, kitVersion, kitMajor, DEFAULT_CHECKPOINT,
  type Checkpoint, type CheckpointSummary, type CheckpointInput, type CheckpointSource,
} from "./checkpoints.js";
export { ErlError, CheckpointExistsError, CheckpointNotFoundError, CheckpointVersionError } from "./errors.js";
// SFT collection (spec §3.1): pure rules first, then the two paths and the call that merges them.
export { extractSegments, type Segment, type SegmentNode } from "./segments.js";
export { acceptSegment, quantileThreshold, type AcceptanceInput, type AcceptanceReason } from "./acceptance.js";
export { jointRanking, type RankCandidate, type RankedCandidate } from "./joint-ranking.js";
export { normaliseMessages, messagesKey, dedupExamples } from "./dedup.js";
export { composition, PAPER_COMPOSITION, type CompositionRow } from "./composition.js";
export { renderJudgePrompt, parseJudgeVerdicts, judgeSegment, JudgeError, type JudgePrompt, type JudgeStep, type StepVerdict } from "./causal-judge.js";
export { exampleMessages, assistantMessage, grammarChoicesOf, chatTokens, tokenFilter, type SftExample } from "./sft-example.js";
export { CollectSftConfig, SftTrainConfig, type CollectSftConfigInput, type SftTrainConfigInput } from "./config.js";
export { parallelDrafts, draftContext, type Teachers, type DraftCandidate, type ParallelTaskStats, type ParallelEvent } from "./parallel-drafts.js";
export { evolutionSegments, type SegmentReport } from "./evolution-segments.js";
export { collectSft, type CollectSftOptions, type CollectSftResult, type CollectEvent } from "./collect-sft.js";
export {
  saveDataset, loadDataset, listDatasets, exportDataset, datasetArrow, datasetDanfo, datasetSql, DatasetExistsError, DatasetNotFoundError,
  type DatasetInfo, type StoredExample,
} from "./dataset-store.js";
export { trainGrammarSft, sftTrain, choicesLogLik, meanLogLik, type SftMetrics, type SftRunOptions } from "./sft-train.js";
export { diffDecisions, summariseShifts, type DecisionShift } from "./decision-diff.js";
// RL (spec §3.2): rewards and advantages, parent states, hack checks, GSPO, rollout groups and the trainer.
export { trainRL, type TrainRlOptions, type TrainRlResult, type RlEvent } from "./train-rl.js";
export { RlConfig, type RlConfigInput } from "./rl-config.js";
export { adaptiveBounds, signedScore, AdaptiveBoundsOptions, type AdaptiveBounds } from "./adaptive-bounds.js";
export { entropicAdvantage, grpoAdvantage, klToUniform, BETA_CAP, type EntropicAdvantage } from "./entropic-advantage.js";
export { gapPenalty, gapScale, penaliseReward, GapPenaltyOptions, METRIC_RANGES, type GapInput, type GapPenalty } from "./gap-penalty.js";
export { groupRewards, type GroupRewards, type GroupRewardSettings, type RolloutOutcome } from "./group-rewards.js";
export { parentFitness, drawParents, eligibleParents, keepTop, minMaxOrHalf, variance, type ParentStats } from "./parent-fitness.js";
export { ParentStore, type ParentState, type ParentPick } from "./parent-store.js";
export { leaderboardBounds, type LeaderboardBounds } from "./leaderboard-bounds.js";
export { submissionHackCheck, type SubmissionHack } from "./submission-hack-check.js";
export { judgeProgram, hackJudgeMessages, hackJudgePrompt, parseHackVerdict, HACK_JUDGE_SYSTEM, type HackJudgePrompt, type HackVerdict } from "./hack-judge.js";
export { gspoUpdate, sequenceLogProb, GspoOptions, type GspoSample, type GspoStats } from "./gspo-update.js";
export { runGroup, type ExecuteProgram, type GroupResult, type GroupSpec, type Rollout } from "./rollout-group.js";
export { consumeBatch, stepMetrics, taskRewardInfo, type RlStepMetrics, type TaskRewardInfo } from "./rl-step.js";
export { exportRollouts, ROLLOUT_EXPORT_SQL } from "./export-rollouts.js";
// The closed loop (issue 13): evolve → collectSft → SFT → trainRL → checkpoint k+1, held-out evaluation per checkpoint.
export { loop, LoopError, type LoopOptions, type LoopResult, type LoopEvent, type GenerationRecord } from "./loop.js";
export { LoopConfig, LOOP_PRESETS, LOOP_PRESET_SETTINGS, stageSettings, type LoopConfigInput, type LoopPreset, type LoopStageSettings } from "./loop-config.js";
export { LOOP_STAGES, loopStages, type LoopStage } from "./loop-store.js";
export { evaluateHeldout, evolveRun, loadHeldout, type HeldoutRow, type Baselines } from "./heldout-eval.js";
export { refreshBaselines, type BaselineRunner } from "./refresh-baselines.js";
