// Every experiment of the paper that `openmle reproduce` knows, validated once at load.
import { SEARCH_EXPERIMENTS } from "./catalogue-search.js";
import { TRAINING_EXPERIMENTS } from "./catalogue-training.js";
import { UnknownExperimentError } from "./errors.js";
import { ExperimentSpec } from "./experiment-spec.js";

/** The catalogue in the paper's order: Table 1 and its breakdowns, search efficiency, training, the Gym. */
export const EXPERIMENTS: readonly ExperimentSpec[] = [...SEARCH_EXPERIMENTS, ...TRAINING_EXPERIMENTS].map((s) =>
  ExperimentSpec.parse(s),
);

/** The experiment with this id; an unknown id names the valid ones. */
export function experimentById(id: string, experiments: readonly ExperimentSpec[] = EXPERIMENTS): ExperimentSpec {
  const found = experiments.find((e) => e.id === id);
  if (!found)
    throw new UnknownExperimentError(
      id,
      experiments.map((e) => e.id),
    );
  return found;
}
