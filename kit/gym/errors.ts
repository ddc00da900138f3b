import { KitError } from "../util/index.js";

/** Base class of every gym error: each names the file (or folder) at fault and says how to fix it. */
export class GymError extends KitError {
  constructor(
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A folder that is not a task package, or a package missing a required file. */
export class TaskPackageError extends GymError {}

/** utils/metric.py cannot be imported or holds no metric class. */
export class MetricLoadError extends GymError {}

/** A task spec that cannot be built (unknown metric, missing target column, empty data ...). */
export class TaskSpecError extends GymError {}

/** utils/prepare.py raised or wrote incomplete outputs. */
export class PrepareError extends GymError {}

/** An unknown built-in task id. */
export class UnknownTaskError extends GymError {}

/** The Python interpreter is missing or a harness call failed unexpectedly. */
export class PythonError extends GymError {}

/** A host-side Python step (prepare, checks, scoring) ran past its time limit and was killed with its children. */
export class PythonTimeoutError extends PythonError {
  constructor(
    message: string,
    path: string,
    readonly limitS: number,
  ) {
    super(message, path);
  }
}

/** Where a package's own code was running when it misbehaved (named in PackageCodeError). */
export type PackageStage = "prepare" | "metric inspect" | "probe" | "profile" | "verify" | "check" | "score" | "import";

/**
 * A package's code (prepare.py, metric.py, or a kit harness that imports them) was stopped by its jail: it went
 * past its memory cap, disk quota or time limit, or left links or special files in its output. Names the stage,
 * the file and what was refused.
 */
export class PackageCodeError extends GymError {
  constructor(
    message: string,
    path: string,
    readonly stage: PackageStage,
    readonly refused: string,
  ) {
    super(message, path);
  }
}

/** The jail for package code cannot be had here, and running package code on the host was not allowed. */
export class PackageJailUnavailableError extends GymError {}
