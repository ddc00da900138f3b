// kit/erl/rl: execution-grounded RL of the grammar policy (the paper's Fig. 6): rewards and advantages, parent
// states, hack checks, GSPO, rollout groups, the trainer and the rollout export for an LLM trainer.
export { trainRL, type TrainRlOptions, type TrainRlResult, type RlEvent } from "./train-rl.js";
export { RlConfig, type RlConfigInput } from "./rl-config.js";
export {
  adaptiveBounds, boundedReward, signedScore, AdaptiveBoundsOptions, type AdaptiveBounds,
} from "./adaptive-bounds.js";
export {
  entropicAdvantage, grpoAdvantage, klToUniform, BETA_CAP, type EntropicAdvantage,
} from "./entropic-advantage.js";
export {
  gapPenalty, gapScale, penaliseReward, GapPenaltyOptions, METRIC_RANGES, type GapInput, type GapPenalty,
} from "./gap-penalty.js";
export { groupRewards, type GroupRewards, type GroupRewardSettings, type RolloutOutcome } from "./group-rewards.js";
export {
  parentFitness, drawParents, eligibleParents, keepTop, minMaxOrHalf, variance, type ParentStats,
} from "./parent-fitness.js";
export { ParentStore, type ParentState, type ParentPick } from "./parent-store.js";
export {
  leaderboardBounds, staticBounds, staticBestBound, theoreticalBest, type LeaderboardBounds, type StaticBounds,
} from "./leaderboard-bounds.js";
export {
  parentBonus, parentReward, copiesParent, normaliseCode, ParentBonusOptions, type ParentOutcome,
} from "./parent-bonus.js";
export { submissionHackCheck, printHack, type SubmissionHack } from "./submission-hack-check.js";
export {
  judgeProgram, hackJudgeMessages, hackJudgePrompt, parseHackVerdict, HACK_JUDGE_SYSTEM, type HackJudgePrompt,
  type HackVerdict,
} from "./hack-judge.js";
export { gspoUpdate, sequenceLogProb, GspoOptions, type GspoSample, type GspoStats } from "./gspo-update.js";
export { runGroup, type ExecuteProgram, type GroupResult, type GroupSpec, type Rollout } from "./rollout-group.js";
export { consumeBatch, stepMetrics, taskRewardInfo, type RlStepMetrics, type TaskRewardInfo } from "./rl-step.js";
export { exportRollouts } from "./export-rollouts.js";
export { readRlRun, type StoredRlRun } from "./rl-run-store.js";
export { storedStepBatches, type StoredStepBatch } from "./rl-store.js";
export {
  fixedScaleReward, needsTrivial, staticWorstOf, TrivialWorstMode, type TaskScale,
} from "./fixed-scale.js";
export { ROLLOUT_EXPORT_SQL } from "./rollout-export-store.js";
