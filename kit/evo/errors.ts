/** Errors of the evo layer: messages name the bad value and what to do. */
export class EvoError extends Error {
  override name = "EvoError";
  readonly userFacing = true;
}

/** `--resume RUN` named a run the workspace does not hold, or one of another task. */
export class ResumeError extends EvoError {
  override name = "ResumeError";
}

/** A harness or setting that does not exist. */
export class EvoConfigError extends EvoError {
  override name = "EvoConfigError";
}
