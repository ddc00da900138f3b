import { CONTEXT_WEIGHTS } from "./context-weights.js";
import type { GrammarParams } from "./params.js";

/**
 * The hand-set prior logits of version 1 (everything else 0 = uniform): strong tree ensembles first on
 * tables, linear TF-IDF models for text, single models for a first draft, one edit per Improve. Loadable as
 * `default@1`: the params of every run recorded before the context labels.
 */
export function handSetGrammarParams(): GrammarParams {
  const logits: Record<string, Record<string, number>> = {};
  for (const mod of ["tabular", "text", "image", "time_series", "audio"]) {
    logits[`draft.${mod}.n_models`] = { "1": 1.5, "2": 0.5, "3": 0 };
    logits[`improve.${mod}.n_edits`] = { "1": 1, "2": 0 };
  }
  logits["draft.tabular.model"] = {
    hist_gb: 1.5,
    xgboost: 1.2,
    random_forest: 0.8,
    extra_trees: 0.6,
    linear: 0.2,
    gradient_boosting: 0.2,
    svm: -0.5,
    knn: -0.5,
    torch_mlp: -0.3,
  };
  logits["draft.time_series.model"] = { hist_gb: 1.5, xgboost: 1.2, random_forest: 0.6, extra_trees: 0.4, linear: 0.3 };
  logits["draft.image.model"] = { torch_cnn: 0.6, hist_gb: 0.5, linear: 0.6, svm: 0.4, extra_trees: 0.3 };
  logits["draft.text.model"] = { linear: 1, svm: 0.5 };
  logits["draft.audio.model"] = { linear: 1, svm: 0.8, hist_gb: 0.5, extra_trees: 0.3, random_forest: 0.3 };
  logits["draft.audio.features.audio_method"] = { mfcc: 1, logmel: 0.3, spectral: -0.5 };
  logits["draft.image.features.image_method"] = { pixels: 0.5, hog: 0.5, stats: 0 };
  logits["draft.image.features.side"] = { "16": 0.5, "28": 0.5, "32": -0.5 };
  logits["draft.tabular.features.interactions"] = { none: 1 };
  logits["draft.time_series.features.difference"] = { yes: 1.5 };
  return { version: 1, logits };
}

/** Every logit and weight 0 (`--params uniform`): version 3, so SFT/RL from it reach the context weights. */
export function uniformGrammarParams(): GrammarParams {
  return { version: 3, logits: {}, optionWeights: {} };
}

/**
 * The default params: the hand-set logits (`handSetGrammarParams`) and the context-label weights measured on
 * the built-in core suite (context-weights.ts; how they were measured is written there).
 */
export function defaultGrammarParams(): GrammarParams {
  return { version: 3, logits: handSetGrammarParams().logits, optionWeights: structuredClone(CONTEXT_WEIGHTS) };
}

/**
 * The same params with context labels off (`--context-features off`, for ablations): version 3 becomes version 2
 * (with its conditioned rows) or 1, whose decisions see no context labels; other versions are returned as they are.
 */
export function withoutContextFeatures(p: GrammarParams): GrammarParams {
  if (p.version !== 3) return p;
  return p.conditioned
    ? { version: 2, logits: p.logits, conditioned: p.conditioned }
    : { version: 1, logits: p.logits };
}
