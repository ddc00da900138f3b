// kit/util: leaf helpers shared by every layer (imports nothing of the kit).
export { createRng, keyedSeed, sampleIndex, type Rng } from "./rng.js";
export { pythonPath } from "./python.js";
export { softmax } from "./softmax.js";
export { logSumExp } from "./log-sum-exp.js";
export { KitError } from "./kit-error.js";
export { readBoundedText, BoundedFileError } from "./bounded-file.js";
export { pidAlive, processTree, removeDeadProcessEntries, signalAll } from "./kill-tree.js";
export { MAX_TIMER_MS, MAX_TIMER_S, timerLimitMessage } from "./timer-limit.js";
export { BIDI, printable, printableLine, showBidi } from "./terminal-safe.js";
export { settleAll } from "./settle-all.js";
export { snakeKey, snakeKeys, camelKey, camelKeys } from "./key-case.js";
