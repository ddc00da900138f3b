import type { Chooser } from "./chooser.js";
import type { ModelFamily, ModelSpec } from "./spec.js";

/**
 * Hyperparameter grids per family, sized so one fit stays within seconds on 2 cores for the
 * built-in tasks. The first value of each grid is the "safe" default. "0" depth means unlimited.
 */
export const PARAM_GRIDS: Record<ModelFamily, Readonly<Record<string, readonly (number | string)[]>>> = {
  linear: { C: [1, 0.3, 3, 10] },
  random_forest: { n_estimators: [150, 100, 300], max_depth: [0, 12, 20], min_samples_leaf: [1, 3] },
  extra_trees: { n_estimators: [150, 100, 300], max_depth: [0, 12, 20], min_samples_leaf: [1, 3] },
  hist_gb: { max_iter: [200, 100, 400, 50], learning_rate: [0.1, 0.05, 0.2], max_leaf_nodes: [31, 15, 63] },
  gradient_boosting: { n_estimators: [150, 100, 300, 50], learning_rate: [0.1, 0.05], max_depth: [3, 2, 5] },
  svm: { C: [1, 0.3, 3, 10] },
  knn: { n_neighbors: [15, 5, 31], weights: ["distance", "uniform"] },
  xgboost: {
    n_estimators: [200, 100, 400, 50],
    max_depth: [5, 3, 7],
    learning_rate: [0.1, 0.05, 0.2],
    subsample: [0.8, 1],
  },
  torch_mlp: {
    hidden: [128, 64, 256],
    epochs: [20, 10, 40],
    lr: [0.001, 0.003],
    dropout: [0.1, 0, 0.3],
    batch_size: [256, 128],
  },
  torch_cnn: { channels: [16, 8, 32], epochs: [5, 3, 8], lr: [0.002, 0.001, 0.005], batch_size: [128, 64] },
};

/** The grid's first value for every parameter (a safe, fast model). */
export function defaultModel(family: ModelFamily): ModelSpec {
  const params: Record<string, number | string> = {};
  for (const [k, grid] of Object.entries(PARAM_GRIDS[family])) params[k] = grid[0]!;
  return { family, params };
}

const label = (v: number | string) => String(v);
const parse = (grid: readonly (number | string)[], l: string) => grid.find((v) => label(v) === l)!;

const ITERATIONS = new Set(["max_iter", "n_estimators"]);
const BOOSTING = new Set<ModelFamily>(["hist_gb", "xgboost", "gradient_boosting"]);

/**
 * The grid values affordable for a task: boosting fits one tree per class per stage, so with K > 2
 * classes the iteration count is capped near 600/K (at least 100) and trees are kept small.
 */
export function affordableGrid(family: ModelFamily, param: string, nClasses: number): readonly (number | string)[] {
  const grid = PARAM_GRIDS[family][param] ?? [];
  if (!BOOSTING.has(family) || nClasses <= 2) return grid;
  const cap = ITERATIONS.has(param)
    ? Math.max(50, 400 / nClasses)
    : param === "max_leaf_nodes"
      ? 31
      : param === "max_depth"
        ? 5
        : Infinity;
  const kept = grid.filter((v) => typeof v !== "number" || v <= cap);
  return kept.length ? kept : [Math.min(...grid.map(Number))];
}

/** Sample every hyperparameter of `family` (decisions `model.<family>.<param>`). */
export function sampleModel(ch: Chooser, family: ModelFamily, nClasses = 2): ModelSpec {
  const params: Record<string, number | string> = {};
  for (const k of Object.keys(PARAM_GRIDS[family])) {
    const grid = affordableGrid(family, k, nClasses);
    params[k] = parse(grid, ch.pick(`model.${family}.${k}`, grid.map(label)));
  }
  return { family, params };
}

/** Resample one hyperparameter to a different grid value (decision `tune.<family>.<param>`). */
export function retuneParam(ch: Chooser, m: ModelSpec, param: string, nClasses = 2): ModelSpec {
  const grid = affordableGrid(m.family, param, nClasses);
  const options = grid.map(label).filter((l) => l !== label(m.params[param] as number | string));
  if (options.length === 0) return m;
  return {
    family: m.family,
    params: { ...m.params, [param]: parse(grid, ch.pick(`tune.${m.family}.${param}`, options)) },
  };
}
