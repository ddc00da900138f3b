// kit/erl/sft: execution-grounded SFT data and SFT of the grammar policy (docs/paper-map.md: SFT collection).
// Pure rules first, then the two collection paths, the call that merges them, the dataset store and training.
export { extractSegments, type Segment, type SegmentNode } from "./segments.js";
export { acceptSegment, quantileThreshold, type AcceptanceInput, type AcceptanceReason } from "./acceptance.js";
export {
  jointRanking, type RankCandidate, type RankedCandidate, type RankReason, type JointRankingOptions,
} from "./joint-ranking.js";
export {
  baselineFilter, validationTestGap, type BaselineFilterInput, type BaselineFilterReason,
} from "./baseline-filter.js";
export { gradedRewards, draftBounds, type DraftBounds } from "./graded-reward.js";
export { normaliseMessages, messagesKey, dedupExamples } from "./dedup.js";
export { composition, PAPER_COMPOSITION, type CompositionRow } from "./composition.js";
export {
  renderJudgePrompt, parseJudgeVerdicts, judgeSegment, JudgeError, type JudgePrompt, type JudgeStep, type StepVerdict,
} from "./causal-judge.js";
export {
  exampleMessages, assistantMessage, grammarChoicesOf, chatTokens, tokenFilter, type SftExample,
} from "./sft-example.js";
export {
  CollectSftConfig, SftTrainConfig, type CollectSftConfigInput, type SftTrainConfigInput,
} from "./sft-config.js";
export {
  parallelDrafts, draftContext, type Teachers, type DraftCandidate, type ParallelTaskStats, type ParallelEvent,
} from "./parallel-drafts.js";
export { evolutionSegments, type SegmentReport } from "./evolution-segments.js";
export { collectSft, type CollectSftOptions, type CollectSftResult, type CollectEvent } from "./collect-sft.js";
export {
  saveDataset, loadDataset, datasetInfo, listDatasets, datasetPaths, exportDataset, datasetArrow, datasetDanfo,
  datasetSql,
  DatasetExistsError, DatasetNotFoundError, type DatasetInfo, type StoredExample,
} from "./dataset-store.js";
export { heldOutSplit, kFolds, HeldOutSplitConfig, type HeldOutSplitConfigInput } from "./held-out-split.js";
export { crossValidatedEpoch } from "./cv-epoch.js";
export {
  trainGrammarSft, sftTrain, choicesLogLik, meanLogLik, type SftMetrics, type SftRunOptions,
} from "./sft-train.js";
export {
  diffDecisions, summariseShifts, policyKl, PolicyKlConfig, type DecisionShift, type PolicyKl, type SituationKl,
  type PolicyKlConfigInput,
} from "./decision-diff.js";
export { situationWords, shiftSentence, FEATURE_WORDS } from "./decision-words.js";
export {
  storedProbes, draftProbes, programProbes, type ProbeSet, type ProbeSkip,
} from "./decision-probes.js";
