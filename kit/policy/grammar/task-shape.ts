import type { TaskPackage } from "../../gym/types.js";
import type { GrammarModality, ModelFamily } from "./spec.js";

/** What the grammar needs to know about a task to size a program. */
export interface TaskShape {
  readonly modality: GrammarModality;
  /** The task's own modality when the grammar treats it as another (e.g. multimodal → tabular). */
  readonly originalModality: string;
  readonly taskType: "classification" | "regression";
  /** Training rows (null when the package does not say). */
  readonly nTrain: number | null;
  /** Number of classes (classification; 2 when unknown), which multiplies the cost of boosting. */
  readonly nClasses: number;
  /** Feature columns of the training table (not id/target; null when the package has no column profile). */
  readonly nFeatures: number | null;
  /** Kinds of those columns, sorted and distinct (e.g. ["categorical", "numeric"]). */
  readonly columnKinds: readonly string[];
  /** Whether any feature column has missing values. */
  readonly missing: boolean;
  /** The task's metric name (e.g. accuracy, rmse, roc_auc). */
  readonly metric: string;
}

export function taskShape(task: TaskPackage): TaskShape {
  const m = task.meta;
  const modality: GrammarModality =
    m.modality === "text" || m.modality === "image" || m.modality === "time_series" || m.modality === "audio"
      ? m.modality
      : "tabular";
  const cols = (m.columns ?? []).filter(
    (c) => c.kind !== "id" && c.kind !== "target" && c.name !== m.trainTarget && c.name !== m.idColumn,
  );
  return {
    modality,
    originalModality: m.modality,
    taskType: m.taskType === "classification" ? "classification" : "regression",
    nTrain: m.nTrain ?? null,
    nClasses: Math.max(2, m.classes?.length ?? m.targetColumns.length),
    nFeatures: m.columns ? cols.length : null,
    columnKinds: [...new Set(cols.map((c) => c.kind))].sort(),
    missing: cols.some((c) => c.missingShare > 0),
    metric: m.metric,
  };
}

/** Model families the grammar writes for each modality (text: sparse-friendly linear models only). */
export const FAMILIES_BY_MODALITY: Record<GrammarModality, readonly ModelFamily[]> = {
  tabular: [
    "hist_gb",
    "xgboost",
    "random_forest",
    "extra_trees",
    "gradient_boosting",
    "linear",
    "svm",
    "knn",
    "torch_mlp",
  ],
  text: ["linear", "svm"],
  image: ["torch_cnn", "torch_mlp", "hist_gb", "linear", "svm", "random_forest", "extra_trees", "knn", "xgboost"],
  time_series: ["hist_gb", "xgboost", "random_forest", "extra_trees", "gradient_boosting", "linear", "knn"],
  audio: [
    "linear",
    "svm",
    "hist_gb",
    "random_forest",
    "extra_trees",
    "knn",
    "torch_mlp",
    "xgboost",
    "gradient_boosting",
  ],
};

/** Families whose cost grows fast with rows: kept off large tables unless subsampled. */
export const HEAVY_FAMILIES: ReadonlySet<ModelFamily> = new Set([
  "svm",
  "knn",
  "gradient_boosting",
  "torch_mlp",
  "torch_cnn",
]);

/** The Python module each family needs beyond numpy/pandas/sklearn. */
export const FAMILY_MODULE: Partial<Record<ModelFamily, string>> = {
  xgboost: "xgboost",
  torch_mlp: "torch",
  torch_cnn: "torch",
};

/** Families usable on this task, minus any whose module is known to be missing. */
export function familiesFor(shape: TaskShape, avoidModules: readonly string[] = []): ModelFamily[] {
  return FAMILIES_BY_MODALITY[shape.modality].filter((f) => {
    const mod = FAMILY_MODULE[f];
    if (mod && avoidModules.includes(mod)) return false;
    if (f === "svm" && shape.modality !== "text" && (shape.nTrain ?? 0) > 20000) return false;
    if (f === "gradient_boosting" && shape.nClasses > 4) return false; // one single-threaded tree per class per stage
    return true;
  });
}
