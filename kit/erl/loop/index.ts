// kit/erl/loop: the closed loop (issue 13): evolve → collectSft → SFT → trainRL → checkpoint k+1,
// with a held-out evaluation of every checkpoint at equal budget.
export { LoopError } from "../errors.js";
export {
  loop, searchSubset, type LoopOptions, type LoopResult, type LoopEvent, type GenerationRecord,
} from "./loop.js";
export {
  LoopConfig, LOOP_PRESETS, LOOP_PRESET_SETTINGS, HeldoutSettings, stageSettings, type LoopConfigInput,
  type LoopPreset, type LoopStageSettings, type EffectiveStageSettings,
} from "./loop-config.js";
export {
  LOOP_STAGES, loopBaselines, saveBaselines, loopCompositions, loopConfig, loopIds, loopStages, loopTaskSets,
  type LoopStage,
} from "./loop-store.js";
export { evaluateHeldout, evolveRun, heldoutBaselines, normalisedUnder, type Baselines } from "./heldout-eval.js";
export { loadHeldout, type HeldoutRow } from "./heldout-store.js";
export { heldoutDrafts, heldoutDraft, type DraftOutcome } from "./heldout-drafts.js";
export { loadHeldoutDrafts, replaceHeldoutDrafts, type HeldoutDraftRow } from "./heldout-drafts-store.js";
export {
  credit, taskFigures, levelSummary, pairedGenerations, normalisableTasks, heldoutReport, drawnCredits, pairedWithDraws,
  winRateWithDraws, pairedReadings,
  type TaskFigure, type LevelSummary, type GenerationHeldout, type LevelReadings, type PairedReadings,
  type TwoIntervals, type HeldoutMeasure,
} from "./heldout-summary.js";
export { winProbability, pairedWinRate, type WinRow } from "./win-rate.js";
export { strictVerdict, directVerdict, describeVerdict, type StrictVerdict } from "./strict-verdict.js";
export {
  replayHeldoutDrafts, offPolicyFigures, offPolicyDiffs, offPolicyPaired, type NamedParams, type OffPolicyMeasure,
  type ReplayedDraft, type PoolDraft, type OffPolicyFigure, type OffPolicyPaired,
} from "./off-policy.js";
export { heldoutPool, type HeldoutPool, type PoolSide } from "./heldout-pool.js";
export {
  noiseSplit, projectedHalfWidth, pairDraws, twoStageGenerations, twoStageWinRate, NoiseSplitConfig, type NoiseSplit,
  type Drawn, type PairedValue,
} from "./heldout-noise.js";
export { refreshBaselines, type BaselineRunner } from "./refresh-baselines.js";
