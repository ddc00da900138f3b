import type { ColumnInfo, Modality, TaskMeta, TaskType } from "./types.js";

/** What task_profile.py reports about a package's public data. */
export interface DataProfile {
  readonly sampleColumns: readonly string[];
  readonly idColumn: string;
  readonly targetColumns: readonly string[];
  readonly trainTarget: string | null;
  readonly trainColumns: readonly string[];
  readonly testColumns: readonly string[];
  readonly nTrain: number;
  readonly nTest: number;
  readonly columns: readonly ColumnInfo[];
  readonly target: { readonly numeric: boolean; readonly unique: number; readonly classes: readonly (string | number)[] | null } | null;
  readonly files: { readonly image: number; readonly audio: number; readonly text: number };
}

/** What metric_harness.py inspect reports about the metric class. */
export interface MetricInfo {
  readonly class_name: string;
  readonly init_defaults: Readonly<Record<string, unknown>>;
  readonly required: readonly string[];
  readonly doc: string;
}

/** Metric names whose smaller values are better (the documented rule when the class gives no default). */
const LOWER_IS_BETTER = /rmse|rmsle|mse|mae|mape|loss|error|distance|deviance|wer|cer|brier/i;

/**
 * Direction of a metric class: its constructor's `higher_is_better` default when it has one,
 * else the name rule (losses and errors are minimised, everything else maximised).
 */
export function inferHigherIsBetter(info: MetricInfo): boolean {
  const d = info.init_defaults.higher_is_better;
  if (typeof d === "boolean") return d;
  return !LOWER_IS_BETTER.test(`${info.class_name} ${String(info.init_defaults.value ?? "")}`);
}

/** Modality from the files and column kinds: image/audio files win, then long text, then dates. */
export function inferModality(p: DataProfile): Modality {
  if (p.files.image > 0 && p.files.audio > 0) return "multimodal";
  if (p.files.image > 0) return "image";
  if (p.files.audio > 0) return "audio";
  const kinds = new Set(p.columns.map((c) => c.kind));
  if (p.files.text > 0 || kinds.has("text")) return kinds.has("numeric") && p.columns.filter((c) => c.kind === "numeric").length > 3 ? "multimodal" : "text";
  if (kinds.has("datetime")) return "time_series";
  return "tabular";
}

export function inferTaskType(p: DataProfile, metricName: string): TaskType {
  if (/map|ndcg|mrr|rank/i.test(metricName)) return "ranking";
  if (p.targetColumns.length > 1) return "classification";
  if (/auc|accuracy|f1|kappa|logloss|log_loss|precision|recall/i.test(metricName)) return "classification";
  if (/rmse|mae|mse|r2|rmsle/i.test(metricName)) return "regression";
  if (!p.target) return "other";
  return p.target.numeric && p.target.unique > 20 ? "regression" : "classification";
}

/** TaskMeta for a package in the paper's format (no task.json). */
export function inferMeta(id: string, p: DataProfile, m: MetricInfo): TaskMeta {
  const metric = m.class_name;
  const taskType = inferTaskType(p, metric);
  return {
    id,
    name: id,
    modality: inferModality(p),
    taskType,
    idColumn: p.idColumn,
    targetColumns: p.targetColumns,
    trainTarget: p.trainTarget ?? p.targetColumns[0] ?? "",
    metric,
    higherIsBetter: inferHigherIsBetter(m),
    ...(taskType === "classification" && p.target?.classes ? { classes: p.target.classes } : {}),
    files: { train: "train.csv", test: "test.csv", sampleSubmission: "sample_submission.csv" },
    columns: p.columns,
    nTrain: p.nTrain,
    nTest: p.nTest,
  };
}
