import { KitError } from "../util/index.js";

/** Errors of the erl layer: each message names the bad value and what to do (one line on the CLI). */
export class ErlError extends KitError {}

/** A checkpoint name that is already taken (pass `replace` / `--replace`, or another name). */
export class CheckpointExistsError extends ErlError {}

/** No checkpoint of that name in the workspace (the message lists the ones there are). */
export class CheckpointNotFoundError extends ErlError {}

/** A checkpoint written by another params format or another kit major version. */
export class CheckpointVersionError extends ErlError {}

/** A closed loop that cannot run or resume as asked (task sets, loop id); the message says what to pass. */
export class LoopError extends ErlError {}
