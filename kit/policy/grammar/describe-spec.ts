import type { SolutionSpec } from "./spec.js";

/** A readable multi-line summary of a spec (the plan's body and the program's docstring). */
export function describeSpec(s: SolutionSpec): string {
  const f = s.features;
  const feats =
    f.kind === "tabular"
      ? `${f.numericImpute} imputation` +
        `${f.missingIndicators ? " + missing indicators" : ""}, ${f.categorical} categoricals (≤` +
        `${f.maxCategories}), interactions: ${f.interactions}, scaling: ${f.scale}`
      : f.kind === "text"
        ? [
            f.word
              ? `word TF-IDF 1–${f.word.ngramMax}-grams (${f.word.maxFeatures} terms` +
                `${f.word.sublinearTf ? ", sublinear tf" : ""})`
              : "",
            f.char ? `char TF-IDF ${f.char.ngramMin}–${f.char.ngramMax}-grams (${f.char.maxFeatures})` : "",
            f.extraColumns ? "numeric columns" : "",
          ]
            .filter(Boolean)
            .join(" + ")
        : f.kind === "image"
          ? `${f.method} features at ${f.side}×${f.side}${f.scale === "standard" ? ", standardised" : ""}`
          : f.kind === "audio"
            ? `${f.method}${f.method === "spectral" ? "" : ` (${f.nMels} mel bands)`} per ` +
              `${f.frameMs} ms frame, mean/std${f.segments ? ` + ${f.segments} segment means` : ""}` +
              `${f.deltas ? " + deltas" : ""}${f.scale === "standard" ? ", standardised" : ""}`
            : `target lags ${f.lags.join(",")}; rolling means ${f.windows.join(",") || "none"}` +
              `${f.calendar ? "; calendar" : ""}${f.exogenousLags ? "; exogenous lags" : ""}`;
  const models = s.models
    .map(
      (m) =>
        `${m.family}(${Object.entries(m.params)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(", ")})`,
    )
    .join(" + ");
  const val =
    s.validation.scheme === "kfold"
      ? `${s.validation.folds}-fold CV`
      : s.validation.scheme === "time_holdout"
        ? `time-ordered holdout (last ${s.validation.holdoutFrac * 100}%)`
        : `random holdout (${s.validation.holdoutFrac * 100}%)`;
  return [
    `Features: ${feats}.`,
    `Model${s.models.length > 1 ? `s (${s.ensemble})` : ""}: ${models}.`,
    `Validation: ${val}; training rows: ${s.maxTrainRows ?? "all"}.`,
  ].join("\n");
}
