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
  readonly target: {
    readonly numeric: boolean;
    readonly unique: number;
    readonly classes: readonly (string | number)[] | null;
  } | null;
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
  if (p.files.text > 0 || kinds.has("text"))
    return kinds.has("numeric") && p.columns.filter((c) => c.kind === "numeric").length > 3 ? "multimodal" : "text";
  if (kinds.has("datetime")) return "time_series";
  return "tabular";
}

/**
 * Well-known metrics a metric class may compute, most specific first: key (the grammar's and the
 * registry's name), its direction, and the words that name it in a class name or docstring.
 */
const METRIC_KINDS: readonly { kind: string; higher: boolean; words: RegExp }[] = [
  {
    kind: "rmsle",
    higher: false,
    words: /\brmsle\b|root[\s_-]*mean[\s_-]*squared[\s_-]*log(arithmic)?[\s_-]*error|rmse of (the )?log/i,
  },
  { kind: "msle", higher: false, words: /\bmsle\b|mean[\s_-]*squared[\s_-]*log(arithmic)?[\s_-]*error/i },
  { kind: "rmse", higher: false, words: /\brmse\b|root[\s_-]*mean[\s_-]*squared[\s_-]*error/i },
  { kind: "mse", higher: false, words: /\bmse\b|mean[\s_-]*squared[\s_-]*error/i },
  { kind: "medae", higher: false, words: /median[\s_-]*absolute[\s_-]*error/i },
  { kind: "mape", higher: false, words: /\bmape\b|mean[\s_-]*absolute[\s_-]*percentage[\s_-]*error/i },
  { kind: "smape", higher: false, words: /\bsmape\b|symmetric[\s_-]*mean[\s_-]*absolute[\s_-]*percentage/i },
  { kind: "mae", higher: false, words: /\bmae\b|mean[\s_-]*absolute[\s_-]*error/i },
  { kind: "r2", higher: true, words: /\br2\b|r[\s_-]*squared|coefficient of determination/i },
  { kind: "logloss", higher: false, words: /log[\s_-]*loss|cross[\s_-]*entropy/i },
  { kind: "rocauc", higher: true, words: /roc[\s_-]*auc|\bauc\b|area under the (roc )?curve/i },
  { kind: "qwk", higher: true, words: /quadratic[\s_-]*weighted[\s_-]*kappa|\bqwk\b/i },
  { kind: "mcc", higher: true, words: /matthews/i },
  { kind: "macrof1", higher: true, words: /macro[\s_-]*(averaged[\s_-]*)?f1|f1[\s_-]*macro/i },
  { kind: "weightedf1", higher: true, words: /weighted[\s_-]*f1|f1[\s_-]*weighted/i },
  { kind: "f1", higher: true, words: /\bf1\b|f1[\s_-]*score/i },
  { kind: "balancedaccuracy", higher: true, words: /balanced[\s_-]*accuracy/i },
  { kind: "accuracy", higher: true, words: /accuracy/i },
];

/** Split CamelCase and snake_case so word rules see "Root Mean Squared Log Error" in RootMeanSquaredLogError. */
const words = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/_/g, " ");

/**
 * The well-known metric a metric class computes, from (1) its class name, then (2) its docstring:
 * the first METRIC_KINDS entry named there whose direction agrees with the class's; null when none
 * (then metricKindFromProbe reads the class's behaviour).
 */
export function resolveMetricKind(
  info: Pick<MetricInfo, "class_name" | "doc">,
  higherIsBetter: boolean,
): string | null {
  for (const text of [words(info.class_name), info.doc]) {
    const hit = METRIC_KINDS.find((k) => k.words.test(text) && k.higher === higherIsBetter);
    if (hit) return hit.kind;
  }
  return null;
}

/**
 * The well-known metric a class computes, from its behaviour: `matches` are the kinds whose values
 * equal the class's scores on made-up submissions (metric_probe.py); the first METRIC_KINDS entry
 * among them whose direction agrees with the class's; null when none.
 */
export function metricKindFromProbe(matches: readonly string[], higherIsBetter: boolean): string | null {
  return METRIC_KINDS.find((k) => matches.includes(k.kind) && k.higher === higherIsBetter)?.kind ?? null;
}

export function inferTaskType(p: DataProfile, metricName: string): TaskType {
  if (/map|ndcg|mrr|rank/i.test(metricName)) return "ranking";
  if (p.targetColumns.length > 1) return "classification";
  if (/auc|accuracy|f1|kappa|logloss|log_loss|precision|recall/i.test(metricName)) return "classification";
  if (/rmse|mae|mse|r2|rmsle/i.test(metricName)) return "regression";
  if (!p.target) return "other";
  return p.target.numeric && p.target.unique > 20 ? "regression" : "classification";
}

/**
 * TaskMeta for a package in the paper's format (no task.json). `probed`: the kinds the metric class
 * matched on a behaviour probe, used when its name and docstring do not say (metricKindFromProbe).
 */
export function inferMeta(id: string, p: DataProfile, m: MetricInfo, probed: readonly string[] = []): TaskMeta {
  const metric = m.class_name;
  const higherIsBetter = inferHigherIsBetter(m);
  const metricKind = resolveMetricKind(m, higherIsBetter) ?? metricKindFromProbe(probed, higherIsBetter);
  const taskType = inferTaskType(p, metricKind ?? metric);
  return {
    id,
    name: id,
    modality: inferModality(p),
    taskType,
    idColumn: p.idColumn,
    targetColumns: p.targetColumns,
    trainTarget: p.trainTarget ?? p.targetColumns[0] ?? "",
    metric,
    ...(metricKind ? { metricKind } : {}),
    higherIsBetter,
    ...(taskType === "classification" && p.target?.classes ? { classes: p.target.classes } : {}),
    files: { train: "train.csv", test: "test.csv", sampleSubmission: "sample_submission.csv" },
    columns: p.columns,
    nTrain: p.nTrain,
    nTest: p.nTest,
  };
}
