import { beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_IDS, resolveTask, type TaskPackage } from "../../gym/index.js";
import {
  composeProgram, FragmentOrderError, KNOWN_METRICS, modelFragments, renderMetric, scoreFragment, type Fragment,
} from "./fragments/index.js";
import { PARAM_GRIDS } from "./model-grid.js";
import { programFragments, renderProgram } from "./render-program.js";
import { GRAMMAR_MODALITIES, MODEL_FAMILIES, type FeatureSpec, type GrammarModality, type ModelSpec, type SolutionSpec } from "./spec.js";
import { FAMILIES_BY_MODALITY, taskShape } from "./task-shape.js";
import { checkPython } from "./test-helpers/python-names.js";

// Every value of every structural choice at least once over the built-in tasks: each field of each
// modality's feature block (numbers at their low and high bounds), each model family at the low and
// high ends of its grid, each ensemble kind and validation scheme in both compositions.
const FEATURE_FIELDS: { [K in GrammarModality]: Record<string, readonly unknown[]> } = {
  tabular: { numericImpute: ["median", "mean", "zero"], missingIndicators: [false, true], scale: ["none", "standard", "quantile"],
    categorical: ["onehot", "ordinal", "target"], maxCategories: [10, 50], interactions: ["none", "products", "ratios"] },
  text: { word: [null, { ngramMax: 1, maxFeatures: 10000, sublinearTf: false, minDf: 1 }, { ngramMax: 3, maxFeatures: 60000, sublinearTf: true, minDf: 2 }],
    char: [null, { ngramMin: 1, ngramMax: 3, maxFeatures: 10000 }, { ngramMin: 3, ngramMax: 5, maxFeatures: 60000 }], extraColumns: [false, true] },
  image: { method: ["pixels", "stats", "hog"], side: [16, 32], scale: ["none", "standard"] },
  time_series: { lags: [[1], [1, 2, 3, 7, 14]], windows: [[], [7, 28]], calendar: [false, true], exogenousLags: [false, true], difference: [false, true] },
  audio: { method: ["mfcc", "logmel", "spectral"], nMels: [26, 64], frameMs: [16, 40], segments: [0, 8], deltas: [false, true], scale: ["none", "standard"] },
};
const BASE_FEATURES: { [K in GrammarModality]: FeatureSpec } = {
  tabular: { kind: "tabular", numericImpute: "median", missingIndicators: false, scale: "none", categorical: "onehot", maxCategories: 20, interactions: "none" },
  text: { kind: "text", word: { ngramMax: 2, maxFeatures: 30000, sublinearTf: true, minDf: 1 }, char: null, extraColumns: false },
  image: { kind: "image", method: "pixels", side: 28, scale: "standard" },
  time_series: { kind: "time_series", lags: [1, 2, 3], windows: [3, 7], calendar: true, exogenousLags: false, difference: false },
  audio: { kind: "audio", method: "mfcc", nMels: 40, frameMs: 25, segments: 4, deltas: true, scale: "standard" },
};
const ENSEMBLES = [["none", 1], ["average", 2], ["stack", 2], ["average", 3], ["stack", 3]] as const;
const VALIDATIONS = [["holdout", 5], ["kfold", 3], ["kfold", 5], ["time_holdout", 5]] as const;

/** A family's model with every parameter at the low (or high) end of its grid. */
function bound(family: ModelSpec["family"], high: boolean): ModelSpec {
  const pick = (vs: readonly (number | string)[]) => [...vs].sort((a, b) => (typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b))))[high ? vs.length - 1 : 0]!;
  return { family, params: Object.fromEntries(Object.entries(PARAM_GRIDS[family]).map(([k, vs]) => [k, pick(vs)])) };
}

function specsFor(task: TaskPackage): SolutionSpec[] {
  const shape = taskShape(task);
  const m = shape.modality;
  const families = FAMILIES_BY_MODALITY[m];
  const base: SolutionSpec = { version: 1, modality: m, taskType: shape.taskType, features: BASE_FEATURES[m], models: [bound(families.find((f) => f !== "torch_cnn")!, false)],
    ensemble: "none", validation: { scheme: m === "time_series" ? "time_holdout" : "holdout", folds: 5, holdoutFrac: 0.2 }, maxTrainRows: null, writer: "sample", seed: 42 };
  const out: SolutionSpec[] = [];
  for (const [field, values] of Object.entries(FEATURE_FIELDS[m])) for (const v of values) out.push({ ...base, features: { ...base.features, [field]: v } as FeatureSpec });
  families.forEach((f, i) => {
    for (const high of [false, true]) out.push({ ...base, models: [bound(f, high)], maxTrainRows: high ? (m === "image" ? 5000 : 20000) : 2000, writer: i % 2 ? "positional" : "sample" });
  });
  ENSEMBLES.forEach(([ensemble, n], i) => out.push({ ...base, ensemble, models: Array.from({ length: n }, (_, j) => bound(families[(i + j) % families.length]!, (i + j) % 2 === 1)) }));
  for (const [scheme, folds] of VALIDATIONS) out.push({ ...base, validation: { scheme, folds, holdoutFrac: 0.2 }, models: families.slice(0, 2).map((f) => bound(f, true)), ensemble: "stack" });
  // A CNN needs pixel features: its specs use them.
  return out.map((s) => (s.models.some((x) => x.family === "torch_cnn") && s.features.kind === "image" ? { ...s, features: { ...s.features, method: "pixels" } } : s));
}

const PLAN = 'plan with """triple quotes""" and a back\\slash';
const TRACE = [{ name: "n_models", value: "1" }, { name: "model", value: "hist_gb" }];
let programs: { name: string; task: TaskPackage; spec: SolutionSpec; fragments: Fragment[]; code: string }[] = [];

beforeAll(async () => {
  const tasks = await Promise.all(BUILTIN_IDS.map((id) => resolveTask(id)));
  programs = tasks.flatMap((task) => specsFor(task).map((spec, i) => {
    const opts = i % 3 === 0 ? { plan: PLAN, trace: TRACE } : {};
    return { name: `${task.meta.id}#${i}`, task, spec, fragments: programFragments(spec, task, opts), code: renderProgram(spec, task, opts) };
  }));
}, 300_000);

describe("grammar programs composed of fragments", () => {
  it("cover every value of every structural choice across the built-in tasks", () => {
    const seen = (f: (s: SolutionSpec) => unknown[]) => new Set(programs.flatMap((p) => f(p.spec).map((v) => JSON.stringify(v))));
    const all = (xs: readonly unknown[]) => new Set(xs.map((v) => JSON.stringify(v)));
    expect(seen((s) => [s.modality])).toEqual(all(GRAMMAR_MODALITIES));
    expect(seen((s) => s.models.map((m) => m.family))).toEqual(all(MODEL_FAMILIES));
    for (const composition of ["time_series", "iid"]) {
      const of = (s: SolutionSpec) => (s.modality === "time_series") === (composition === "time_series");
      expect(seen((s) => (of(s) ? [s.validation.scheme, s.validation.folds] : []))).toEqual(all(["holdout", "kfold", "time_holdout", 3, 5]));
      expect(seen((s) => (of(s) ? [`${s.ensemble}:${s.taskType}`] : []))).toEqual(all(["none", "average", "stack"].flatMap((e) => [`${e}:classification`, `${e}:regression`])));
    }
    for (const m of GRAMMAR_MODALITIES) {
      for (const [field, values] of Object.entries(FEATURE_FIELDS[m])) {
        expect(seen((s) => (s.features.kind === m ? [(s.features as unknown as Record<string, unknown>)[field]] : [])), `${m}.${field}`).toEqual(new Set([...all(values), ...all([(BASE_FEATURES[m] as unknown as Record<string, unknown>)[field]])]));
      }
    }
    for (const family of MODEL_FAMILIES) {
      for (const high of [false, true]) expect(programs.some((p) => p.spec.models.some((m) => JSON.stringify(m) === JSON.stringify(bound(family, high)))), `${family} ${high ? "high" : "low"}`).toBe(true);
    }
  });

  it("every name a fragment uses is defined by an earlier one (checked as they render), and renderProgram is their text", () => {
    expect(programs.length).toBeGreaterThan(300);
    for (const p of programs) expect(composeProgram(p.fragments), p.name).toBe(p.code);
  });

  it("declarations are truthful, and every program compiles (one python3 process)", () => {
    // Every metric the grammar knows, in both directions (the built-in tasks use only a few).
    const metrics = (["classification", "regression"] as const).flatMap((t) => KNOWN_METRICS[t].flatMap((k) => [true, false].map((hib) => scoreFragment(renderMetric(k, hib, t)))));
    const unique = new Map<string, Fragment>();
    for (const f of [...programs.flatMap((p) => p.fragments), ...metrics]) unique.set(JSON.stringify([f.code, f.defines, f.uses, f.dormant]), f);
    const fragments = [...unique.values()];
    const r = checkPython(programs.map((p) => ({ name: p.name, code: p.code })), fragments.map((f) => f.code));
    expect(r.errors).toEqual([]);
    const sorted = (xs: readonly string[]) => [...new Set(xs)].sort();
    const wrong = fragments.flatMap((f, i) => {
      const actual = r.names[i]!;
      const declared = { defines: sorted(f.defines), uses: sorted([...f.uses, ...f.dormant]) };
      const same = JSON.stringify(declared) === JSON.stringify({ defines: sorted(actual.defines), uses: sorted(actual.uses) });
      return same && !f.uses.some((n) => f.dormant.includes(n)) ? [] : [{ fragment: f.name, declared, actual }];
    });
    expect(wrong).toEqual([]);
    // Every fragment of both compositions was among them.
    expect(new Set(fragments.map((f) => f.name.replace(/^section .*/, "section")))).toEqual(new Set([
      "docstring", "imports", "section", "settings", "data.tables", "data.random_rows", "data.latest_rows", "data.feature_columns", "target",
      "metric", "features.numeric_block", "features.tabular", "features.text", "features.image.settings", "features.image.pixels",
      "features.image.stats", "features.image.hog", "features.image", "features.time_series", "features.audio", "models.torch",
      "model.torch_mlp", "model.torch_cnn", "models", "models.fit_predict", "validation.groups", "validation.splits", "validation.time_splits",
      "ensemble.stack_matrix", "ensemble.convex_stack", "ensemble.meta_model", "ensemble.combine", "fit.features", "validation.folds",
      "validation.fold_data", "validation.honest_fold_data", "validation.models", "ensemble.out_of_fold", "ensemble.forward_out_of_fold",
      "validation.score", "fit.refit", "submission.columns", "submission.align", "submission.write", "trace",
    ]));
  }, 60_000);

  it("every estimator or splitter that draws random numbers gets the program's SEED, so a program scores the same each run", () => {
    const seeded = /\b(LinearSV[CR]|SVC|RandomForest\w*|ExtraTrees\w*|HistGradientBoosting\w*|GradientBoosting\w*|XGB\w*|KFold|StratifiedKFold)\(([^()]*)\)/g;
    // The built-in tasks hold no text regression: its model list rendered from a text task's spec joins the programs.
    const text = programs.find((p) => p.spec.modality === "text")!;
    const textRegression = { name: `${text.name} as regression`, code: modelFragments({ ...text.spec, taskType: "regression",
      models: MODEL_FAMILIES.filter((f) => FAMILIES_BY_MODALITY.text.includes(f)).map((f) => bound(f, true)) }).map((f) => f.code).join("") };
    const calls = [...programs, textRegression].flatMap((p) => [...p.code.matchAll(seeded)].map((m) => ({ name: p.name, call: m[0] })));
    expect(new Set(calls.map((c) => c.call.replace(/\(.*/, "")))).toEqual(
      new Set(["LinearSVC", "LinearSVR", "SVC", "RandomForestClassifier", "RandomForestRegressor", "ExtraTreesClassifier",
        "ExtraTreesRegressor", "HistGradientBoostingClassifier", "HistGradientBoostingRegressor", "GradientBoostingClassifier",
        "GradientBoostingRegressor", "XGBClassifier", "XGBRegressor", "KFold", "StratifiedKFold"]),
    );
    expect(calls.filter((c) => !c.call.includes("random_state=SEED"))).toEqual([]);
  });

  it("a name read before anything defines it throws FragmentOrderError naming the fragment and the name", () => {
    const tabular = programs.find((p) => p.spec.modality === "tabular")!;
    const without = tabular.fragments.filter((f) => f.name !== "data.feature_columns");
    expect(() => composeProgram(without)).toThrow(FragmentOrderError);
    expect(() => composeProgram(without)).toThrow(/fragment "features\.tabular" reads "feature_columns"/);
    const late = [...without, tabular.fragments.find((f) => f.name === "data.feature_columns")!];
    expect(() => composeProgram(late)).toThrow(/"data\.feature_columns" defines it later/);
    // A torch CNN without image features reads SIDE, which only image features define.
    const cnn: SolutionSpec = { ...tabular.spec, models: [bound("torch_cnn", false)] };
    const err = (() => { try { renderProgram(cnn, tabular.task); } catch (e) { return e; } })() as FragmentOrderError;
    expect({ fragment: err.fragment, missing: err.missing, later: err.definedLaterBy }).toEqual({ fragment: "models", missing: "SIDE", later: null });
  });
});
