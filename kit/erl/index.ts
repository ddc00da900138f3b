// kit/erl: execution-grounded training of policies from what evo stored (spec §3).
export {
  saveCheckpoint, loadCheckpoint, listCheckpoints, resolvePolicyParams, kitVersion, kitMajor, DEFAULT_CHECKPOINT,
  type Checkpoint, type CheckpointSummary, type CheckpointInput, type CheckpointSource,
} from "./checkpoints.js";
export { ErlError, CheckpointExistsError, CheckpointNotFoundError, CheckpointVersionError } from "./errors.js";
export { diffDecisions, summariseShifts, type DecisionShift } from "./decision-diff.js";
