import { KitError } from "../util/index.js";

/** Base class of kit/reproduce errors: user-facing (the CLI prints the message without a stack). */
export class ReproduceError extends KitError {}

/** An experiment id the catalogue does not have. */
export class UnknownExperimentError extends ReproduceError {
  constructor(
    readonly id: string,
    readonly valid: readonly string[],
  ) {
    super(`unknown experiment "${id}". Experiments: ${valid.join(", ")} (openmle reproduce --list shows them).`);
  }
}

/** An experiment that has no such preset (a reference-only one has none; NatureBench has no paper preset). */
export class PresetNotDefinedError extends ReproduceError {
  constructor(
    readonly id: string,
    readonly preset: string,
    readonly defined: readonly string[],
  ) {
    super(
      `experiment "${id}" has no ${preset} preset` +
        (defined.length ? `: pass --preset ${defined.join(" or ")}.` : " (its rows are the paper's reference only)."),
    );
  }
}
