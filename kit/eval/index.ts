// kit/eval: MLE-bench grading, evaluate() over a workspace, NatureBench gaps, search-efficiency statistics,
// trajectory analysis (per operator, best-score curve, champion lineage, gain share by phase), run throughput.
export { EvalError, UnknownCompetitionError, InvalidScoreError, LeaderboardFormatError } from "./errors.js";
export { medalPositions, type MedalPositions } from "./medal-positions.js";
export { humanRank } from "./human-rank.js";
export { median } from "./median.js";
export { meanStd, percentile, type MeanStd } from "./mean-std.js";
export { pairedBootstrap, PairedBootstrapConfig, type PairedInterval } from "./paired-bootstrap.js";
export { twoStageBootstrap } from "./two-stage-bootstrap.js";
export { mixtureWeights, weightedMean, effectiveSampleSize, weightedWinProbability } from "./mixture-importance.js";
export {
  parseLeaderboardCsv, loadLeaderboardFile, loadLiteLeaderboard, liteCompetitionIds, liteDataDir, type Leaderboard,
} from "./leaderboard.js";
export { packageRoot } from "./package-root.js";
export { gradeScore, isLowerBetter, parseScore, type CompetitionReport, type GradeOptions } from "./grade-score.js";
export { summarizeGrades, type GradeSummary } from "./grade-summary.js";
export {
  normalizedScore, clipNormalized, weakReference, NormalizedScoreConfig, WeakReferenceConfig,
  type NormalizedScoreConfigInput, type WeakReferenceConfigInput,
} from "./normalized-score.js";
export {
  instanceGap, natureBench, SURPASS_MARGIN, type NatureInstance, type NatureTaskGap, type NatureSummary,
} from "./naturebench.js";
export {
  evaluateRuns, groupKey, type RunOutcome, type GradedRun, type Grade, type EvaluateOptions, type Evaluation,
  type TaskRow, type GroupRow,
} from "./evaluate-runs.js";
export {
  evaluate, loadRunOutcomes, liteLeaderboardsFor, leaderboardsFor, perfectScore, type EvaluateWorkspaceOptions,
} from "./load-run-outcomes.js";
export {
  searchEfficiency, recordTrace, relativeChange, lateShare, matchedEfficiency, type EffNode, type EffCall,
  type TracePoint, type RunEfficiency, type OperatorEfficiency, type SearchEfficiency, type MatchedTotals,
} from "./search-efficiency.js";
export { loadSearchRows, loadSearchEfficiency, type SearchRows } from "./load-search-stats.js";
export {
  throughput, formatRate, formatNodesPerMin, formatShare, formatSplit, formatTimeSplit, type Throughput,
  type ThroughputInput,
} from "./throughput.js";
export { loadThroughput, type RunThroughput } from "./load-throughput.js";
export {
  championVsDraft, type ChampionVsDraft, type ChampionDraftState, type ComparedNode, type ComparedScores,
} from "./champion-vs-draft.js";
export {
  validationTransfer, spearman, averageRanks, type ValidationTransfer, type TransferNode, type TransferPoint,
} from "./validation-transfer.js";
export { compareRuns, RunsCompareConfig, type RunsComparison, type ComparedPair } from "./runs-compare.js";
export { validationScheme, type ValidationScheme, type ValidationSchemeKind } from "./validation-scheme.js";
export {
  runBaselines, baselineProgram, featureCode, type BaselineKind, type BaselineScores,
} from "./run-baselines.js";
export {
  ZOO_VERSION, ZOO_ENTRIES, ReferenceZooConfig, zooProgram, zooHash, zooOutput, type ZooEntry, type ZooView,
  type ZooRule, type ReferenceZooConfigInput,
} from "./reference-zoo.js";
export {
  runReferenceZoo, ZOO_LIMITS, type ZooRun, type ZooEntryResult, type ZooEntryStatus, type RunZooOptions,
} from "./reference-zoo-run.js";
export {
  formatScore, rankEntries, leaderboardCsv, SCORE_DIGITS, type LeaderboardRow,
} from "./corpus-leaderboards-rank.js";
export {
  corpusLeaderboardsFor, corpusLeaderboardsDir, readLeaderboardManifest, writeLeaderboardManifest, LeaderboardManifest,
  type ManifestTask, type CorpusLeaderboardsOptions,
} from "./corpus-leaderboards-manifest.js";
export {
  buildCorpusLeaderboards, BuildLeaderboardsConfig, type BuildLeaderboardsConfigInput, type BuildLeaderboardsOptions,
  type BuildLeaderboardsResult, type LeaderboardEvent,
} from "./corpus-leaderboards.js";
export {
  nodeGains, TRAJECTORY_OPERATORS, type TrajectoryRun, type TrajectoryNode, type NodeGain,
} from "./trajectory-node.js";
export { operatorStats, type OperatorStatsRow } from "./trajectory-operators.js";
export { bestScoreCurve, type CurvePoint } from "./trajectory-curve.js";
export { championLineage, championOf, type LineageStep } from "./trajectory-lineage.js";
export { gainShare, GainShareConfig, type GainShare, type GainShareRow, type Phase } from "./trajectory-gain-share.js";
export { loadTrajectories, loadRunStats, runStats, runStatsFrames, type RunStats } from "./run-stats.js";
