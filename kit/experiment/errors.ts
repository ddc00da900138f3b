// kit/experiment's errors: one line each, naming the bad value and what to do in the CLI's words.
import { KitError } from "../util/index.js";

/** Base class of kit/experiment errors: user-facing (the CLI prints the message without a stack). */
export class ExperimentError extends KitError {}

/** A plan file that is missing, not JSON, or not a plan (the zod issues, first three). */
export class PlanError extends ExperimentError {}

/** A registration id the workspace does not hold. */
export class RegistrationNotFoundError extends ExperimentError {}

/**
 * What a registered plan fixed has changed since: a task package's content, a checkpoint's params, a params file.
 * The registration cannot run any more; a changed plan is a new registration.
 */
export class PlanDriftError extends ExperimentError {}

/** An arm's checkpoint was trained on a task sharing a study with a task of the plan. */
export class TrainingOverlapError extends ExperimentError {}
