// kit/erl: execution-grounded training of policies from what evo stored (docs/paper-map.md: SFT collection,
// RL mechanisms), in three parts:
// sft/ (collect SFT data, train on it), rl/ (trainRL), loop/ (the closed loop over both). Each part's
// index.ts is its whole API; the checkpoint store and the layer's errors are shared by all three.
export {
  saveCheckpoint, loadCheckpoint, listCheckpoints, resolvePolicyParams, kitVersion, kitMajor, DEFAULT_CHECKPOINT,
  type Checkpoint, type CheckpointSummary, type CheckpointInput, type CheckpointSource,
} from "./checkpoints.js";
export { ErlError, CheckpointExistsError, CheckpointNotFoundError, CheckpointVersionError, } from "./errors.js";
export * from "./sft/index.js";
export * from "./rl/index.js";
export * from "./loop/index.js";
