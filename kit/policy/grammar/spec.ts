/**
 * The typed solution spec the grammar policy samples, edits and renders into main.py.
 * Plain readonly data (JSON round-trips unchanged), so it can sit in NodeView.spec and the store.
 */

/** The modalities the grammar knows how to write programs for. */
export const GRAMMAR_MODALITIES = ["tabular", "text", "image", "time_series", "audio"] as const;
export type GrammarModality = (typeof GRAMMAR_MODALITIES)[number];

export interface TabularFeatures {
  readonly kind: "tabular";
  readonly numericImpute: "median" | "mean" | "zero";
  readonly missingIndicators: boolean;
  readonly scale: "none" | "standard" | "quantile";
  readonly categorical: "onehot" | "ordinal" | "target";
  /** One-hot: categories beyond the most frequent N are grouped together. */
  readonly maxCategories: number;
  readonly interactions: "none" | "products" | "ratios";
}

export interface TextFeatures {
  readonly kind: "text";
  /** Word TF-IDF; null = off. */
  readonly word: {
    readonly ngramMax: number;
    readonly maxFeatures: number;
    readonly sublinearTf: boolean;
    readonly minDf: number;
  } | null;
  /** Character TF-IDF (char_wb); null = off. */
  readonly char: { readonly ngramMin: number; readonly ngramMax: number; readonly maxFeatures: number } | null;
  /** Also use the table's numeric / categorical columns (imputed, one-hot). */
  readonly extraColumns: boolean;
}

export interface ImageFeatures {
  readonly kind: "image";
  /** pixels: downsampled grey pixels; stats: per-channel statistics + histograms; hog: gradient-orientation histograms.
   */
  readonly method: "pixels" | "stats" | "hog";
  /** Images are resized to side x side before feature extraction. */
  readonly side: number;
  readonly scale: "none" | "standard";
}

export interface TimeSeriesFeatures {
  readonly kind: "time_series";
  /** Target lags (rows of the same series, ordered by time). */
  readonly lags: readonly number[];
  /** Rolling-mean windows on the lagged target. */
  readonly windows: readonly number[];
  readonly calendar: boolean;
  /** Lags of the other numeric columns too. */
  readonly exogenousLags: boolean;
  /** Regression: model the change from a drift forecast (last known value + mean one-step change × steps since it), so
   * trees follow a trend over a forecast horizon. */
  readonly difference: boolean;
}

export interface AudioFeatures {
  readonly kind: "audio";
  /**
   * Per-frame features of a short-time spectrogram (numpy/scipy only): mfcc: cepstral coefficients
   * (DCT of the log-mel energies); logmel: the log-mel energies; spectral: centroid, bandwidth,
   * roll-off, flatness, log energy and 8 coarse log band energies.
   */
  readonly method: "mfcc" | "logmel" | "spectral";
  /** Mel bands (mfcc, logmel). */
  readonly nMels: number;
  /** Analysis frame length in milliseconds (hann window, hop of half a frame). */
  readonly frameMs: number;
  /** Also the frame features' mean over this many equal time segments (0 = mean and std over the whole clip only). */
  readonly segments: number;
  /** Also the mean and std of the frame-to-frame differences (delta features). */
  readonly deltas: boolean;
  readonly scale: "none" | "standard";
}

export type FeatureSpec = TabularFeatures | TextFeatures | ImageFeatures | TimeSeriesFeatures | AudioFeatures;

export const MODEL_FAMILIES = [
  "linear",
  "random_forest",
  "extra_trees",
  "hist_gb",
  "gradient_boosting",
  "svm",
  "knn",
  "xgboost",
  "torch_mlp",
  "torch_cnn",
] as const;
export type ModelFamily = (typeof MODEL_FAMILIES)[number];

/** One model: family plus its hyperparameters (rendered as keyword arguments or training settings). */
export interface ModelSpec {
  readonly family: ModelFamily;
  readonly params: Readonly<Record<string, number | string | boolean>>;
}

export interface ValidationSpec {
  readonly scheme: "holdout" | "kfold" | "time_holdout";
  readonly folds: number;
  readonly holdoutFrac: number;
}

export interface SolutionSpec {
  readonly version: 1;
  readonly modality: GrammarModality;
  readonly taskType: "classification" | "regression";
  readonly features: FeatureSpec;
  /** 1–3 models; more than one is combined by `ensemble`. */
  readonly models: readonly ModelSpec[];
  readonly ensemble: "none" | "average" | "stack";
  readonly validation: ValidationSpec;
  /** Training rows kept (random subsample; time series keep the latest rows); null = all. */
  readonly maxTrainRows: number | null;
  /** Submission writer: "sample" aligns rows to sample_submission ids; "positional" writes in test order. */
  readonly writer: "sample" | "positional";
  readonly seed: number;
}

/**
 * The method-family label of the spec's program, as the card detector (kit/evo detectMethodFamily)
 * reads the rendered main.py: "ensemble" (several models), xgboost and neural_net (torch) joined by
 * "+" in the detector's order; otherwise cv for image features, nlp for TF-IDF text features, else sklearn.
 */
export function methodFamily(spec: SolutionSpec): string {
  const fams = new Set(spec.models.map((m) => m.family));
  const joined = [
    ...(spec.models.length > 1 ? ["ensemble"] : []),
    ...(fams.has("xgboost") ? ["xgboost"] : []),
    ...(fams.has("torch_mlp") || fams.has("torch_cnn") ? ["neural_net"] : []),
  ];
  if (joined.length) return joined.join("+");
  if (spec.features.kind === "image") return "cv";
  if (spec.features.kind === "text") return "nlp";
  return "sklearn";
}

/** Type guard for specs arriving through NodeView.spec (unknown). */
export function isSolutionSpec(x: unknown): x is SolutionSpec {
  if (typeof x !== "object" || x === null) return false;
  const s = x as Partial<SolutionSpec>;
  return (
    s.version === 1 &&
    typeof s.modality === "string" &&
    Array.isArray(s.models) &&
    s.models.length > 0 &&
    typeof s.features === "object" &&
    s.features !== null &&
    typeof s.validation === "object"
  );
}

/**
 * What `child` changed against `parent` (the first that differs, in this order): model (families, their
 * settings or the ensemble), features, validation, data (training rows), else none.
 */
export function specChange(
  parent: SolutionSpec,
  child: SolutionSpec,
): "model" | "features" | "validation" | "data" | "none" {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(parent.models, child.models) || parent.ensemble !== child.ensemble) return "model";
  if (!same(parent.features, child.features)) return "features";
  if (!same(parent.validation, child.validation)) return "validation";
  if (parent.maxTrainRows !== child.maxTrainRows) return "data";
  return "none";
}
