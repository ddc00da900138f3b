// kit/erl/loop: the closed loop (issue 13): evolve → collectSft → SFT → trainRL → checkpoint k+1,
// with a held-out evaluation of every checkpoint at equal budget.
export { LoopError } from "../errors.js";
export { loop, type LoopOptions, type LoopResult, type LoopEvent, type GenerationRecord } from "./loop.js";
export {
  LoopConfig, LOOP_PRESETS, LOOP_PRESET_SETTINGS, stageSettings, type LoopConfigInput, type LoopPreset,
  type LoopStageSettings,
} from "./loop-config.js";
export { LOOP_STAGES, loopStages, type LoopStage } from "./loop-store.js";
export { evaluateHeldout, evolveRun, type Baselines } from "./heldout-eval.js";
export { loadHeldout, type HeldoutRow } from "./heldout-store.js";
export { refreshBaselines, type BaselineRunner } from "./refresh-baselines.js";
