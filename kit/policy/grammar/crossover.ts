import type { Chooser } from "./chooser.js";
import { normaliseSpec } from "./draft.js";
import type { FeatureSpec, SolutionSpec } from "./spec.js";
import { crossoverModeFeatures } from "./option-features.js";

export const CROSSOVER_MODES = ["ensemble", "swap_features", "union_features"] as const;
export type CrossoverMode = (typeof CROSSOVER_MODES)[number];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const union = (a: readonly number[], b: readonly number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);

/** Union of two feature blocks of the same modality (the better parent's settings win ties). */
export function unionFeatures(best: FeatureSpec, other: FeatureSpec): FeatureSpec {
  if (best.kind === "tabular" && other.kind === "tabular") {
    return {
      ...best,
      missingIndicators: best.missingIndicators || other.missingIndicators,
      interactions: best.interactions !== "none" ? best.interactions : other.interactions,
      maxCategories: Math.max(best.maxCategories, other.maxCategories),
    };
  }
  if (best.kind === "text" && other.kind === "text") {
    return {
      ...best,
      word: best.word ?? other.word,
      char: best.char ?? other.char,
      extraColumns: best.extraColumns || other.extraColumns,
    };
  }
  if (best.kind === "image" && other.kind === "image") return { ...best, side: Math.max(best.side, other.side) };
  if (best.kind === "audio" && other.kind === "audio")
    return { ...best, segments: Math.max(best.segments, other.segments), deltas: best.deltas || other.deltas };
  if (best.kind === "time_series" && other.kind === "time_series") {
    return {
      ...best,
      lags: union(best.lags, other.lags),
      windows: union(best.windows, other.windows),
      calendar: best.calendar || other.calendar,
      exogenousLags: best.exogenousLags || other.exogenousLags,
      difference: best.difference || other.difference,
    };
  }
  return best;
}

/**
 * Crossover of two parents (`best` has the better validation score):
 * - ensemble: the better parent's features, its first model plus the other's first model, averaged or stacked;
 * - swap_features: the better parent's models on the other parent's features;
 * - union_features: the union of both feature blocks under the better parent's models.
 * A mode that would reproduce a parent falls back to `ensemble` (and then to adding the other's models).
 */
export function crossoverSpecs(
  ch: Chooser,
  best: SolutionSpec,
  other: SolutionSpec,
): { spec: SolutionSpec; notes: string[] } {
  const labels = ch.evidence ? crossoverModeFeatures(best.models[0]!.family, other.models[0]!.family) : undefined;
  const mode = ch.pick("mode", CROSSOVER_MODES, labels);
  const ensemble = (): SolutionSpec => {
    const extra = other.models.find((m) => !best.models.some((b) => same(b, m))) ?? other.models[0]!;
    const models = same(best.models[0], extra) ? best.models.slice(0, 3) : [best.models[0]!, extra];
    const combine = ch.pick("combine", ["average", "stack"]);
    const rows =
      best.maxTrainRows === null || other.maxTrainRows === null
        ? Math.min(best.maxTrainRows ?? Infinity, other.maxTrainRows ?? Infinity)
        : Math.min(best.maxTrainRows, other.maxTrainRows);
    return { ...best, models, ensemble: combine, maxTrainRows: Number.isFinite(rows) ? rows : null };
  };
  let spec: SolutionSpec;
  let used: CrossoverMode = mode;
  if (mode === "swap_features" && best.features.kind === other.features.kind && !same(best.features, other.features)) {
    spec = { ...best, features: other.features };
  } else if (mode === "union_features" && !same(unionFeatures(best.features, other.features), best.features)) {
    spec = { ...best, features: unionFeatures(best.features, other.features) };
  } else {
    used = "ensemble";
    spec = ensemble();
  }
  spec = normaliseSpec(spec);
  if (same(spec, best) || same(spec, other)) {
    // Both parents share models and features: the only new thing left is a bigger ensemble.
    const models = [...best.models, ...other.models.filter((m) => !best.models.some((b) => same(b, m)))].slice(0, 3);
    spec = normaliseSpec({
      ...spec,
      models,
      ensemble: models.length > 1 ? "average" : "none",
      validation: { ...spec.validation, scheme: spec.modality === "time_series" ? "time_holdout" : "kfold", folds: 3 },
    });
  }
  return {
    spec,
    notes: [`crossover (${used}${used !== mode ? `, ${mode} would repeat a parent` : ""}): ${describeModels(spec)}`],
  };
}

const describeModels = (s: SolutionSpec) =>
  s.models.map((m) => m.family).join(" + ") + (s.models.length > 1 ? ` (${s.ensemble})` : "");
