import { MODEL_FAMILIES, type ModelFamily, type ModelSpec, type SolutionSpec } from "../spec.js";
import { fragment, fromImport, importAs, type Fragment, type PyImport } from "./fragment.js";
import { torchFragments } from "./torch-models.js";

/** What a family's constructor depends on: the task type, and text (sparse-friendly variants). */
interface ModelContext {
  readonly cls: boolean;
  readonly text: boolean;
}

/** One model family: its imports, the constructor expression MODELS calls, and the program names it reads. */
interface FamilyRenderer {
  imports(c: ModelContext): readonly PyImport[];
  expr(p: ModelSpec["params"], c: ModelContext): string;
  reads(c: ModelContext): readonly string[];
}

const num = (v: unknown, d: number) => (typeof v === "number" ? v : d);
const depth = (v: unknown) => (typeof v === "number" && v > 0 ? String(v) : "None");
const kind = (c: ModelContext) => (c.cls ? "Classifier" : "Regressor");
const ensemble = (base: string) => (c: ModelContext) => [fromImport("sklearn.ensemble", `${base}${kind(c)}`)];
const none = () => [] as const;

const trees = (base: string): FamilyRenderer => ({
  imports: ensemble(base),
  expr: (p, c) =>
    `${base}${kind(c)}(n_estimators=${num(p.n_estimators, 200)}, max_depth=` +
    `${depth(p.max_depth)}, min_samples_leaf=${num(p.min_samples_leaf, 1)}, n_jobs=N_JOBS, random_state=SEED)`,
  reads: () => ["N_JOBS", "SEED"],
});

const FAMILIES = {
  linear: {
    imports: (c) => [fromImport("sklearn.linear_model", c.cls ? "LogisticRegression" : "Ridge")],
    expr: (p, c) =>
      c.cls
        ? `LogisticRegression(C=${num(p.C, 1)}, max_iter=500)`
        : `Ridge(alpha=${+(1 / num(p.C, 1)).toPrecision(3)})`,
    reads: none,
  },
  random_forest: trees("RandomForest"),
  extra_trees: trees("ExtraTrees"),
  hist_gb: {
    imports: ensemble("HistGradientBoosting"),
    expr: (p, c) =>
      `HistGradientBoosting${kind(c)}(max_iter=${num(p.max_iter, 200)}, learning_rate=` +
      `${num(p.learning_rate, 0.1)}, max_leaf_nodes=${num(p.max_leaf_nodes, 31)}, early_stopping=True, ` +
      `n_iter_no_change=15, random_state=SEED)`,
    reads: () => ["SEED"],
  },
  gradient_boosting: {
    imports: ensemble("GradientBoosting"),
    expr: (p, c) =>
      `GradientBoosting${kind(c)}(n_estimators=${num(p.n_estimators, 100)}, learning_rate=` +
      `${num(p.learning_rate, 0.1)}, max_depth=${num(p.max_depth, 3)}, subsample=0.8, random_state=SEED)`,
    reads: () => ["SEED"],
  },
  svm: {
    imports: (c) =>
      c.text
        ? c.cls
          ? [fromImport("sklearn.svm", "LinearSVC"), fromImport("sklearn.calibration", "CalibratedClassifierCV")]
          : [fromImport("sklearn.svm", "LinearSVR")]
        : [fromImport("sklearn.svm", c.cls ? "SVC" : "SVR")],
    expr: (p, c) =>
      c.text
        ? c.cls
          ? `CalibratedClassifierCV(LinearSVC(C=${num(p.C, 1)}, random_state=SEED), cv=3)`
          : `LinearSVR(C=${num(p.C, 1)}, max_iter=5000, random_state=SEED)`
        : c.cls
          ? `SVC(C=${num(p.C, 1)}, probability=True, random_state=SEED)`
          : `SVR(C=${num(p.C, 1)})`,
    // liblinear shuffles by random_state: without it the global RNG seeds it and a program's score varies run to run.
    reads: (c) => (c.text || c.cls ? ["SEED"] : []),
  },
  knn: {
    imports: (c) => [fromImport("sklearn.neighbors", `KNeighbors${kind(c)}`)],
    expr: (p, c) =>
      `KNeighbors${kind(c)}(n_neighbors=${num(p.n_neighbors, 15)}, weights="` +
      `${p.weights === "distance" ? "distance" : "uniform"}", n_jobs=N_JOBS)`,
    reads: () => ["N_JOBS"],
  },
  xgboost: {
    imports: () => [importAs("xgboost", "xgb")],
    expr: (p, c) =>
      `xgb.XGB${kind(c)}(n_estimators=${num(p.n_estimators, 200)}, max_depth=` +
      `${num(p.max_depth, 5)}, learning_rate=${num(p.learning_rate, 0.1)}, subsample=` +
      `${num(p.subsample, 0.8)}, colsample_bytree=0.8, tree_method="hist", n_jobs=N_JOBS, random_state=SEED)`,
    reads: () => ["N_JOBS", "SEED"],
  },
  torch_mlp: {
    imports: none,
    expr: (p) =>
      `TorchMLP(hidden=${num(p.hidden, 128)}, epochs=${num(p.epochs, 20)}, lr=${num(p.lr, 0.001)}, dropout=` +
      `${num(p.dropout, 0.1)}, batch_size=${num(p.batch_size, 256)})`,
    reads: () => ["TorchMLP"],
  },
  torch_cnn: {
    imports: none,
    expr: (p) =>
      `TorchCNN(side=SIDE, ` +
      `channels=${num(p.channels, 16)}, epochs=${num(p.epochs, 5)}, lr=${num(p.lr, 0.002)}, batch_size=` +
      `${num(p.batch_size, 128)})`,
    reads: () => ["TorchCNN", "SIDE"],
  },
} satisfies Record<ModelFamily, FamilyRenderer>;

const context = (s: SolutionSpec): ModelContext => ({
  cls: s.taskType === "classification",
  text: s.modality === "text",
});

/**
 * The imports of the chosen models, in family order (only those, so a missing optional package fails only
 * when used). A stacked spec also imports the linear family's model: the i.i.d. stacker is linear.
 */
export function modelImports(s: SolutionSpec): PyImport[] {
  const fams = new Set<ModelFamily>(s.models.map((m) => m.family));
  if (s.ensemble === "stack") fams.add("linear");
  return MODEL_FAMILIES.filter((f) => fams.has(f)).flatMap((f) => FAMILIES[f].imports(context(s)));
}

/** The torch model classes when a torch family is used, then `MODELS`: (name, constructor) per model. */
export function modelFragments(s: SolutionSpec): Fragment[] {
  const c = context(s);
  const entries = s.models.map((m, i) => `    ("${m.family}#${i}", lambda: ${FAMILIES[m.family].expr(m.params, c)}),`);
  const uses = s.models.flatMap((m) => [
    ...FAMILIES[m.family].imports(c).map((i) => i.binds),
    ...FAMILIES[m.family].reads(c),
  ]);
  const list = fragment(
    "models",
    { defines: ["MODELS"], uses: [...new Set(uses)] },
    `
MODELS = [
${entries.join("\n")}
]
`,
  );
  return [...torchFragments(new Set(s.models.map((m) => m.family))), list];
}

/**
 * `fit_predict(make, X_a, y_a, X_b)`: a fresh model's class probabilities over all classes, or values. A fitted
 * forest predicts on one thread: with several, scikit-learn adds its trees' predictions in the order the threads
 * finish, so the last bits change from run to run, and a stacker's convergence can turn on them (one held-out
 * program's grade moved 5 % between reruns; bench/erl/runs/2026-12-06-learning-25-grading-differences.md).
 */
export const fitPredict = fragment(
  "models.fit_predict",
  { defines: ["fit_predict"], uses: ["TASK_TYPE", "np", "N_CLASSES"] },
  `
def fit_predict(make, X_a, y_a, X_b):
    """Fit a fresh model; return class probabilities over all N_CLASSES (classification) or values."""
    model = make()
    def one_thread():  # a forest sums its trees in the order threads finish: predict on one, same bits every run
        if hasattr(model, "estimators_") and getattr(model, "n_jobs", 1) not in (None, 1):
            model.set_params(n_jobs=1)
    if TASK_TYPE != "classification":
        model.fit(X_a, y_a)
        one_thread()
        return np.asarray(model.predict(X_b), dtype=float).ravel()
    present = np.unique(y_a)
    P = np.zeros((X_b.shape[0], N_CLASSES))
    if len(present) == 1:
        P[:, present[0]] = 1.0
        return P
    model.fit(X_a, np.searchsorted(present, y_a))  # contiguous 0..k-1 labels (xgboost needs them)
    one_thread()
    P[:, present] = model.predict_proba(X_b)
    return P
`,
);
