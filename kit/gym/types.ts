/** Shared task types: what every layer above gym knows about a task package (docs/paper-map.md: Task packages). */
export type Modality = "tabular" | "image" | "text" | "time_series" | "audio" | "multimodal" | "other";
export type TaskType = "classification" | "regression" | "ranking" | "other";

/** A column of the public training table, as profiled when the package is built or loaded. */
export interface ColumnInfo {
  readonly name: string;
  readonly kind: "numeric" | "categorical" | "text" | "datetime" | "path" | "id" | "target";
  readonly missingShare: number;
  readonly unique: number;
}

/**
 * Kit metadata of a package, kept in `<task>/task.json`. Packages published with the paper
 * have no task.json: `loadTask` infers these fields from sample_submission.csv and metric.py.
 */
export interface TaskMeta {
  readonly id: string;
  readonly name: string;
  readonly modality: Modality;
  readonly taskType: TaskType;
  /** First column of sample_submission.csv. */
  readonly idColumn: string;
  /** The prediction columns of sample_submission.csv (one, or one per class for probabilities). */
  readonly targetColumns: readonly string[];
  /** Target column name in train.csv (may differ from targetColumns for probability outputs). */
  readonly trainTarget: string;
  readonly metric: string;
  /**
   * The well-known metric `metric` computes, when it is a class of its own (paper-format packages):
   * resolved from the class's name and docstring (resolveMetricKind), else from its scores on a probe
   * (metric_probe.py, metricKindFromProbe), e.g. "rmsle"; absent when unknown.
   */
  readonly metricKind?: string;
  readonly higherIsBetter: boolean;
  /** Class labels for classification tasks. */
  readonly classes?: readonly (string | number)[];
  /** Files under data/public, relative to it. */
  readonly files: {
    readonly train: string;
    readonly test: string;
    readonly sampleSubmission: string;
    readonly extra?: readonly string[];
  };
  readonly columns?: readonly ColumnInfo[];
  readonly nTrain?: number;
  readonly nTest?: number;
  /** MLE-bench competition id whose leaderboard grades this task, when there is one. */
  readonly competitionId?: string;
  readonly source?: string;
  readonly licence?: string;
}

/** A loaded package: absolute paths plus metadata. `privateDir` is never shown to programs. */
export interface TaskPackage {
  readonly dir: string;
  readonly publicDir: string;
  readonly privateDir: string;
  readonly meta: TaskMeta;
  /** description.txt, read once. */
  readonly description: string;
}
