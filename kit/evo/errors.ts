import { KitError } from "../util/index.js";

/** Errors of the evo layer: messages name the bad value and what to do. */
export class EvoError extends KitError {}

/** `--resume RUN` named a run the workspace does not hold, or one of another task. */
export class ResumeError extends EvoError {}

/** A harness or setting that does not exist. */
export class EvoConfigError extends EvoError {}
