/** Errors of the erl layer: each message names the bad value and what to do (one line on the CLI). */
export class ErlError extends Error {
  override name = "ErlError";
  readonly userFacing = true;
}

/** A checkpoint name that is already taken (pass `replace` / `--replace`, or another name). */
export class CheckpointExistsError extends ErlError {
  override name = "CheckpointExistsError";
}

/** No checkpoint of that name in the workspace (the message lists the ones there are). */
export class CheckpointNotFoundError extends ErlError {
  override name = "CheckpointNotFoundError";
}

/** A checkpoint written by another params format or another kit major version. */
export class CheckpointVersionError extends ErlError {
  override name = "CheckpointVersionError";
}

/** A closed loop that cannot run or resume as asked (task sets, loop id); the message says what to pass. */
export class LoopError extends ErlError {
  constructor(message: string) {
    super(message);
    this.name = "LoopError";
  }
}
