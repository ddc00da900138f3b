import { fragment, type Fragment } from "./fragment.js";

/**
 * The validation metric a program prints, matched to the task's metric name where the grammar knows
 * it; otherwise a stand-in with the same direction (so search compares scores the right way).
 */
export interface RenderedMetric {
  readonly name: string;
  /** True when the metric is the task's own; false for a same-direction stand-in. */
  readonly exact: boolean;
  /** Python body of `score(y_true, pred)`; `pred` is class probabilities (classification) or values. */
  readonly body: string;
  /** The program's names the body reads (numpy, N_CLASSES). */
  readonly uses: readonly string[];
}

const LABELS = "labels = pred.argmax(axis=1)";
const CLS: Record<string, string> = {
  accuracy: `${LABELS}\n    return float(np.mean(labels == y_true))`,
  balancedaccuracy:
    `from sklearn.metrics import balanced_accuracy_score\n    ${LABELS}\n    return ` +
    `float(balanced_accuracy_score(y_true, labels))`,
  f1:
    `from sklearn.metrics import f1_score\n    ${LABELS}\n    return float(f1_score(y_true, ` +
    `labels, average="binary" if N_CLASSES == 2 else "macro"))`,
  macrof1:
    `from sklearn.metrics import f1_score\n    ${LABELS}\n    return float(f1_score(y_true, ` +
    `labels, average="macro"))`,
  weightedf1:
    `from sklearn.metrics import f1_score\n    ${LABELS}\n    return ` +
    `float(f1_score(y_true, labels, average="weighted"))`,
  microf1:
    `from sklearn.metrics import f1_score\n    ${LABELS}\n    return float(f1_score(y_true, ` +
    `labels, average="micro"))`,
  rocauc:
    `from sklearn.metrics import roc_auc_score\n    if N_CLASSES == 2:\n        return ` +
    `float(roc_auc_score(y_true, pred[:, 1]))\n    return float(roc_auc_score(y_true, pred, ` +
    `multi_class="ovr", labels=list(range(N_CLASSES))))`,
  logloss:
    `from sklearn.metrics import log_loss\n    return float(log_loss(y_true, np.clip(pred, ` +
    `1e-15, 1.0), labels=list(range(N_CLASSES))))`,
  qwk:
    `from sklearn.metrics import cohen_kappa_score\n    ${LABELS}\n    return ` +
    `float(cohen_kappa_score(y_true, labels, weights="quadratic"))`,
  mcc:
    `from sklearn.metrics import matthews_corrcoef\n    ${LABELS}\n    return ` +
    `float(matthews_corrcoef(y_true, labels))`,
};
const REG: Record<string, string> = {
  rmse: "return float(np.sqrt(np.mean((pred - y_true) ** 2)))",
  mse: "return float(np.mean((pred - y_true) ** 2))",
  msle: "return float(np.mean((np.log1p(np.clip(pred, 0, None)) - np.log1p(np.clip(y_true, 0, None))) ** 2))",
  mae: "return float(np.mean(np.abs(pred - y_true)))",
  r2: "return float(1.0 - np.sum((y_true - pred) ** 2) / max(np.sum((y_true - y_true.mean()) ** 2), 1e-12))",
  rmsle: "return float(np.sqrt(np.mean((np.log1p(np.clip(pred, 0, None)) - np.log1p(np.clip(y_true, 0, None))) ** 2)))",
  mape: "return float(np.mean(np.abs(pred - y_true) / np.maximum(np.abs(y_true), 1e-9)))",
  smape: "return float(np.mean(2 * np.abs(pred - y_true) / np.maximum(np.abs(pred) + np.abs(y_true), 1e-9)))",
  medae: "return float(np.median(np.abs(pred - y_true)))",
};
/** The metrics the grammar writes itself, by task type (any other gets a same-direction stand-in). */
export const KNOWN_METRICS = { classification: Object.keys(CLS), regression: Object.keys(REG) } as const;
/** What each body reads from the program: every regression body numpy, classification bodies as listed. */
const CLS_USES: Record<string, readonly string[]> = {
  accuracy: ["np"],
  f1: ["N_CLASSES"],
  rocauc: ["N_CLASSES"],
  logloss: ["np", "N_CLASSES"],
};
const usesOf = (taskType: "classification" | "regression", k: string) =>
  taskType === "classification" ? (CLS_USES[k] ?? []) : ["np"];
const ALIASES: Record<string, string> = {
  acc: "accuracy",
  auc: "rocauc",
  roc: "rocauc",
  aucroc: "rocauc",
  f1score: "f1",
  f1macro: "macrof1",
  f1weighted: "weightedf1",
  f1micro: "microf1",
  crossentropy: "logloss",
  multiclasslogloss: "logloss",
  multilogloss: "logloss",
  mlogloss: "logloss",
  binarylogloss: "logloss",
  quadraticweightedkappa: "qwk",
  kappa: "qwk",
  cohenkappa: "qwk",
  matthewscorrcoef: "mcc",
  rootmeansquarederror: "rmse",
  meansquarederror: "mse",
  meanabsoluteerror: "mae",
  r2score: "r2",
  rsquared: "r2",
  rootmeansquaredlogerror: "rmsle",
  meanabsolutepercentageerror: "mape",
  medianabsoluteerror: "medae",
};
const HIGHER = new Set([
  "accuracy",
  "balancedaccuracy",
  "f1",
  "macrof1",
  "weightedf1",
  "microf1",
  "rocauc",
  "qwk",
  "mcc",
  "r2",
]);

export function normaliseMetricName(name: string): string {
  const k = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return ALIASES[k] ?? k;
}

/** Whether the grammar writes class probabilities to a single target column (AUC / log loss). */
export function wantsProbability(metric: string): boolean {
  const k = normaliseMetricName(metric);
  return k === "rocauc" || k === "logloss";
}

export function renderMetric(
  metric: string,
  higherIsBetter: boolean,
  taskType: "classification" | "regression",
): RenderedMetric {
  const k = normaliseMetricName(metric);
  const table = taskType === "classification" ? CLS : REG;
  if (table[k] && HIGHER.has(k) === higherIsBetter)
    return { name: k, exact: true, body: table[k], uses: usesOf(taskType, k) };
  const fallback =
    taskType === "classification" ? (higherIsBetter ? "accuracy" : "logloss") : higherIsBetter ? "r2" : "rmse";
  return { name: fallback, exact: false, body: table[fallback]!, uses: usesOf(taskType, fallback) };
}

/** `score(y_true, pred)`: the validation metric. */
export function scoreFragment(metric: RenderedMetric): Fragment {
  return fragment(
    "metric",
    { defines: ["score"], uses: metric.uses },
    `
def score(y_true, pred):
    """Validation ${metric.name}."""
    ${metric.body}
`,
  );
}
