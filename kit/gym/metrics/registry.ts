import { TaskSpecError } from "../errors.js";
import type { TaskType } from "../types.js";

/**
 * What a submission holds for a metric:
 * label: one column of class labels; value: one numeric column; proba_binary: one column with the
 * probability of the positive class; proba_multi: one probability column per class; ranking: one
 * column of space-separated labels, best first. test_answer.csv always has the submission's columns
 * (one-hot for proba_multi, 0/1 for proba_binary), so the answers score themselves.
 */
export type OutputKind = "label" | "value" | "proba_binary" | "proba_multi" | "ranking";

export interface MetricDef {
  readonly title: string;
  readonly higherIsBetter: boolean;
  /** The value the answers score against themselves. */
  readonly best: number;
  /** Every value the metric can take, [lowest, highest] (±Infinity when unbounded). */
  readonly range: readonly [number, number];
  readonly output: OutputKind;
  readonly taskType: TaskType;
  /** Python body of `_score(self, t, p)`: t, p are the answers' and submission's target columns aligned by id. */
  readonly python: string;
}

/** The metric registry: every metric buildTask can write into utils/metric.py. */
export const METRICS = {
  accuracy: {
    title: "accuracy",
    higherIsBetter: true,
    best: 1,
    range: [0, 1],
    output: "label",
    taskType: "classification",
    python: "return float(np.mean(_norm(t.iloc[:, 0]) == _norm(p.iloc[:, 0])))",
  },
  macro_f1: {
    title: "macro-averaged F1",
    higherIsBetter: true,
    best: 1,
    range: [0, 1],
    output: "label",
    taskType: "classification",
    python: "return float(skm.f1_score(_norm(t.iloc[:, 0]), _norm(p.iloc[:, 0]), average='macro'))",
  },
  roc_auc: {
    title: "ROC-AUC (binary; submit the positive-class probability)",
    higherIsBetter: true,
    best: 1,
    range: [0, 1],
    output: "proba_binary",
    taskType: "classification",
    python: "return float(skm.roc_auc_score(t.iloc[:, 0].astype(int), p.iloc[:, 0].astype(float)))",
  },
  roc_auc_ovr: {
    title: "ROC-AUC one-vs-rest, averaged over class columns",
    higherIsBetter: true,
    best: 1,
    range: [0, 1],
    output: "proba_multi",
    taskType: "classification",
    python: [
      "scores = [skm.roc_auc_score(t[c].astype(int), p[c].astype(float)) for c in COLUMNS if t[c].nunique() == 2]",
      "return float(np.mean(scores))",
    ].join("\n"),
  },
  log_loss: {
    title: "multi-class log loss (rows renormalised, clipped at 1e-15)",
    higherIsBetter: false,
    best: 0,
    range: [0, Infinity],
    output: "proba_multi",
    taskType: "classification",
    python: [
      "y = t.values.astype(float)",
      "q = np.clip(p.values.astype(float), 1e-15, 1.0)",
      "q = q / q.sum(axis=1, keepdims=True)",
      "return float(-np.mean(np.sum(y * np.log(q), axis=1)))",
    ].join("\n"),
  },
  rmse: {
    title: "root mean squared error",
    higherIsBetter: false,
    best: 0,
    range: [0, Infinity],
    output: "value",
    taskType: "regression",
    python: "return float(np.sqrt(np.mean((t.iloc[:, 0].astype(float) - p.iloc[:, 0].astype(float)) ** 2)))",
  },
  rmsle: {
    title: "root mean squared logarithmic error",
    higherIsBetter: false,
    best: 0,
    range: [0, Infinity],
    output: "value",
    taskType: "regression",
    python:
      "return float(np.sqrt(np.mean((np.log1p(t.iloc[:, 0].astype(float)) - np.log1p(p.iloc[:, " +
      "0].astype(float))) ** 2)))",
  },
  mae: {
    title: "mean absolute error",
    higherIsBetter: false,
    best: 0,
    range: [0, Infinity],
    output: "value",
    taskType: "regression",
    python: "return float(np.mean(np.abs(t.iloc[:, 0].astype(float) - p.iloc[:, 0].astype(float))))",
  },
  r2: {
    title: "coefficient of determination R²",
    higherIsBetter: true,
    best: 1,
    range: [-Infinity, 1],
    output: "value",
    taskType: "regression",
    python: "return float(skm.r2_score(t.iloc[:, 0].astype(float), p.iloc[:, 0].astype(float)))",
  },
  qwk: {
    title: "quadratic weighted kappa (integer grades; predictions are rounded)",
    higherIsBetter: true,
    best: 1,
    range: [-1, 1],
    output: "value",
    taskType: "classification",
    python:
      "return float(skm.cohen_kappa_score(np.rint(t.iloc[:, 0].astype(float)).astype(int), " +
      "np.rint(p.iloc[:, 0].astype(float)).astype(int), weights='quadratic'))",
  },
  map_at_k: {
    title: "mean average precision at k (one true label per row; submit up to k labels, best first)",
    higherIsBetter: true,
    best: 1,
    range: [0, 1],
    output: "ranking",
    taskType: "classification",
    python: [
      "total = 0.0",
      "for truth, pred in zip(_norm(t.iloc[:, 0]), p.iloc[:, 0].astype(str)):",
      "    guesses = pred.split()[:K]",
      "    total += 1.0 / (guesses.index(truth) + 1) if truth in guesses else 0.0",
      "return total / max(len(t), 1)",
    ].join("\n"),
  },
} as const satisfies Record<string, MetricDef>;

export type MetricName = keyof typeof METRICS;
export const METRIC_NAMES = Object.keys(METRICS) as MetricName[];

/** The registry entry for `name`; an unknown name throws listing the valid ones. */
export function getMetric(name: string, file = "task spec"): MetricDef {
  const def = (METRICS as Record<string, MetricDef>)[name];
  if (!def)
    throw new TaskSpecError(`${file}: unknown metric "${name}". Fix: use one of ${METRIC_NAMES.join(", ")}.`, file);
  return def;
}

/**
 * The values a registry metric can take, or null for a metric the registry does not know (a
 * hand-written or imported metric.py): scores outside it cannot come from the metric.
 */
export function metricRange(name: string): readonly [number, number] | null {
  return (METRICS as Record<string, MetricDef>)[name]?.range ?? null;
}
