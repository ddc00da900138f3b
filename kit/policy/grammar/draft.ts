import type { Chooser } from "./chooser.js";
import { defaultModel, sampleModel } from "./model-grid.js";
import type { FeatureSpec, GrammarModality, ModelFamily, ModelSpec, SolutionSpec } from "./spec.js";
import { familiesFor, HEAVY_FAMILIES, type TaskShape } from "./task-shape.js";
import { familyOptionFeatures } from "./option-features.js";

const SEED = 42;

/** Sample the feature block of a modality (decisions `features.<field>`). */
export function sampleFeatures(
  ch: Chooser,
  modality: GrammarModality,
  models: readonly ModelSpec[],
  taskType: "classification" | "regression",
): FeatureSpec {
  switch (modality) {
    case "tabular":
      return {
        kind: "tabular",
        numericImpute: ch.pick("features.impute", ["median", "mean", "zero"]),
        missingIndicators: ch.pickBool("features.missing_indicators"),
        scale: ch.pick("features.scale", ["none", "standard", "quantile"]),
        categorical: ch.pick("features.categorical", ["onehot", "ordinal", "target"]),
        maxCategories: ch.pickNumber("features.max_categories", [20, 10, 50]),
        interactions: ch.pick("features.interactions", ["none", "products", "ratios"]),
      };
    case "text": {
      const word = ch.pick("features.word_ngrams", ["2", "1", "3", "off"]);
      const char = ch.pick(
        "features.char_ngrams",
        word === "off" ? ["2-5", "3-5", "1-3"] : ["off", "2-5", "3-5", "1-3"],
      );
      return {
        kind: "text",
        word:
          word === "off"
            ? null
            : {
                ngramMax: Number(word),
                maxFeatures: ch.pickNumber("features.word_max_features", [30000, 10000, 60000]),
                sublinearTf: ch.pickBool("features.sublinear_tf"),
                minDf: ch.pickNumber("features.min_df", [1, 2]),
              },
        char:
          char === "off"
            ? null
            : {
                ngramMin: Number(char.split("-")[0]),
                ngramMax: Number(char.split("-")[1]),
                maxFeatures: ch.pickNumber("features.char_max_features", [30000, 10000, 60000]),
              },
        extraColumns: ch.pickBool("features.extra_columns"),
      };
    }
    case "image": {
      const cnn = models.some((m) => m.family === "torch_cnn");
      return {
        kind: "image",
        method: ch.pick("features.image_method", cnn ? ["pixels"] : ["pixels", "stats", "hog"]),
        side: ch.pickNumber("features.side", [28, 16, 32]),
        scale: ch.pick("features.image_scale", ["standard", "none"]),
      };
    }
    case "time_series":
      return {
        kind: "time_series",
        lags: ch.pick("features.lags", ["1,2,3", "1", "1,7", "1,2,3,7,14"]).split(",").map(Number),
        windows: ((w) => (w === "none" ? [] : w.split(",").map(Number)))(
          ch.pick("features.windows", ["3,7", "none", "3", "7,28"]),
        ),
        calendar: ch.pickBool("features.calendar"),
        exogenousLags: ch.pickBool("features.exogenous_lags"),
        difference: taskType === "regression" ? ch.pickBool("features.difference") : false,
      };
    case "audio":
      return {
        kind: "audio",
        method: ch.pick("features.audio_method", ["mfcc", "logmel", "spectral"]),
        nMels: ch.pickNumber("features.n_mels", [40, 26, 64]),
        frameMs: ch.pickNumber("features.frame_ms", [25, 40, 16]),
        segments: ch.pickNumber("features.segments", [4, 0, 8]),
        deltas: ch.pickBool("features.deltas"),
        scale: ch.pick("features.audio_scale", ["standard", "none"]),
      };
  }
}

/** Row caps offered for a task of this size; heavy families never see more than 10k rows. */
export function rowOptions(shape: TaskShape, models: readonly ModelSpec[]): string[] {
  const n = shape.nTrain ?? 0;
  const heavy = models.some((m) => HEAVY_FAMILIES.has(m.family));
  const caps = shape.modality === "image" ? [5000, 2000] : [20000, 5000];
  const opts = ["all", ...caps.map(String)].filter((o) =>
    o === "all" ? !(heavy && n > 10000) && !(shape.modality === "image" && n > 5000) : Number(o) < n,
  );
  return opts.length ? opts : [String(caps[caps.length - 1])];
}

/** Draft: a fresh spec for the task (decision prefix `draft.<modality>`). */
export function draftSpec(ch: Chooser, shape: TaskShape, avoidModules: readonly string[] = []): SolutionSpec {
  const families = familiesFor(shape, avoidModules);
  const count = Number(ch.pick("n_models", (["1", "2", "3"] as const).slice(0, Math.max(1, families.length))));
  const models: ModelSpec[] = [];
  for (let i = 0; i < count; i++) {
    const left = families.filter((f) => !models.some((m) => m.family === f));
    const opts = left.length ? left : families;
    const labels = ch.evidence ? familyOptionFeatures(ch.evidence, opts, shape.modality) : undefined;
    models.push(sampleModel(ch, ch.pick("model", opts, labels), shape.nClasses));
  }
  const features = sampleFeatures(ch, shape.modality, models, shape.taskType);
  const rows = ch.pick("max_rows", rowOptions(shape, models));
  const maxTrainRows = rows === "all" ? null : Number(rows);
  const effective = Math.min(maxTrainRows ?? Infinity, shape.nTrain ?? 5000);
  const scheme =
    shape.modality === "time_series"
      ? ch.pick("validation", ["time_holdout"])
      : ch.pick("validation", effective * count <= 20000 ? ["holdout", "kfold"] : ["holdout"]);
  return {
    version: 1,
    modality: shape.modality,
    taskType: shape.taskType,
    features,
    models,
    ensemble: count > 1 ? ch.pick("ensemble", ["average", "stack"]) : "none",
    validation: { scheme, folds: scheme === "kfold" ? ch.pickNumber("folds", [5, 3]) : 5, holdoutFrac: 0.2 },
    maxTrainRows,
    writer: "sample",
    seed: SEED,
  };
}

/** A known-good, fast spec per modality: what Debug falls back to. No decisions. */
export function safeSpec(shape: TaskShape, avoidModules: readonly string[] = []): SolutionSpec {
  const family: ModelFamily =
    shape.modality === "text" || shape.modality === "image" || shape.modality === "audio" ? "linear" : "hist_gb";
  const features: FeatureSpec =
    shape.modality === "tabular"
      ? {
          kind: "tabular",
          numericImpute: "median",
          missingIndicators: false,
          scale: "standard",
          categorical: "ordinal",
          maxCategories: 20,
          interactions: "none",
        }
      : shape.modality === "text"
        ? {
            kind: "text",
            word: { ngramMax: 2, maxFeatures: 20000, sublinearTf: true, minDf: 1 },
            char: null,
            extraColumns: false,
          }
        : shape.modality === "image"
          ? { kind: "image", method: "pixels", side: 16, scale: "standard" }
          : shape.modality === "audio"
            ? { kind: "audio", method: "mfcc", nMels: 40, frameMs: 25, segments: 4, deltas: true, scale: "standard" }
            : {
                kind: "time_series",
                lags: [1, 2, 3],
                windows: [3],
                calendar: true,
                exogenousLags: false,
                difference: shape.taskType === "regression",
              };
  void avoidModules; // the safe families need only numpy, pandas and scikit-learn
  const n = shape.nTrain ?? 0;
  return {
    version: 1,
    modality: shape.modality,
    taskType: shape.taskType,
    features,
    models: [defaultModel(family)],
    ensemble: "none",
    validation: { scheme: shape.modality === "time_series" ? "time_holdout" : "holdout", folds: 5, holdoutFrac: 0.2 },
    maxTrainRows: n > 20000 ? 20000 : shape.modality === "image" && n > 5000 ? 5000 : null,
    writer: "sample",
    seed: SEED,
  };
}

/** Enforce cross-part constraints after edits (a CNN needs pixel features; ≤ 3 models). */
export function normaliseSpec(spec: SolutionSpec): SolutionSpec {
  let s = spec;
  if (s.models.length > 3) s = { ...s, models: s.models.slice(0, 3) };
  if (s.models.length === 1 && s.ensemble !== "none") s = { ...s, ensemble: "none" };
  if (s.models.length > 1 && s.ensemble === "none") s = { ...s, ensemble: "average" };
  if (s.features.kind === "image" && s.features.method !== "pixels" && s.models.some((m) => m.family === "torch_cnn")) {
    s = { ...s, features: { ...s.features, method: "pixels" } };
  }
  return s;
}
