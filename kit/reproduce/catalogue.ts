// Every experiment of the paper that `openmle reproduce` knows, validated once at load.
import { SEARCH_EXPERIMENTS } from "./catalogue-search.js";
import { TRAINING_EXPERIMENTS } from "./catalogue-training.js";
import { ReproduceError, UnknownExperimentError } from "./errors.js";
import { ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";

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

/**
 * `spec` with only the arms `ids` in its `preset` (in the spec's order), e.g. one row of Table 1 at the paper's
 * scale; the cells keep their names, so a later run with every arm reads these back. Unknown ids name the valid.
 */
export function selectArms(spec: ExperimentSpec, preset: ReproducePreset, ids: readonly string[]): ExperimentSpec {
  const p = spec.presets[preset];
  if (!p || spec.sharesCellsWith)
    throw new ReproduceError(`${spec.id} has no arms of its own at the ${preset} preset to select from`);
  const unknown = ids.filter((id) => !p.arms.some((a) => a.id === id));
  if (unknown.length)
    throw new ReproduceError(
      `${spec.id} (${preset}) has no arm ${unknown.join(", ")}: its arms are ${p.arms.map((a) => a.id).join(", ")}`,
    );
  const arms = p.arms.filter((a) => ids.includes(a.id));
  return { ...spec, presets: { ...spec.presets, [preset]: { ...p, arms } } };
}
