import type { TaskPackage } from "../../gym/types.js";
import type { TraceStep } from "./chooser.js";
import { renderFeatures } from "./render-features.js";
import { renderMetric, wantsProbability } from "./render-metric.js";
import { modelExpr, modelImports, torchClasses } from "./render-models.js";
import type { SolutionSpec } from "./spec.js";

const TRACE_PREFIX = "# grammar-trace: ";
const pyStr = (s: string) => JSON.stringify(s);
const pyList = (xs: readonly (string | number)[]) => `[${xs.map((x) => (typeof x === "number" ? String(x) : pyStr(x))).join(", ")}]`;

/**
 * The time-series regression stacker: weights on the simplex (non-negative, summing to 1), i.e. a weighted
 * average of the models, so the stack cannot scale its models' predictions past their range. Non-negative
 * weights alone did: on co2-concentration, models predicting the change from the last known value gave
 * near-zero changes over the horizon and the stacker multiplied them by ~270 to fit the holdout's trend
 * (validation RMSE 7.8, test 59; honest-validation.test.ts).
 */
const CONVEX_STACK = `
class ConvexStack:
    """Stack weights on the simplex: a weighted average of the models (least squares, SLSQP)."""
    def fit(self, Z, y):
        k = Z.shape[1]
        res = minimize(lambda w: float(np.mean((Z @ w - y) ** 2)), np.full(k, 1.0 / k),
                       jac=lambda w: 2.0 * Z.T @ (Z @ w - y) / len(y), bounds=[(0.0, 1.0)] * k, method="SLSQP",
                       constraints=[{"type": "eq", "fun": lambda w: w.sum() - 1.0, "jac": lambda w: np.ones(k)}])
        w = np.clip(res.x, 0.0, None) if res.success else np.full(k, 1.0 / k)
        self.coef_ = w / w.sum() if w.sum() > 0 else np.full(k, 1.0 / k)
        return self

    def predict(self, Z):
        return Z @ self.coef_
`;

/**
 * Render a spec into a complete main.py following the program contract: reads DATA_DIR, writes
 * submission.csv (sample submission's columns and ids) in the working directory, and prints
 * `Final Validation Score: <float>`. The decision trace, when given, is kept as a last comment line
 * so `logProb` can re-score the program later.
 */
export function renderProgram(spec: SolutionSpec, task: TaskPackage, opts: { plan?: string; trace?: readonly TraceStep[] } = {}): string {
  const m = task.meta;
  // A paper-format package names its metric by its class; metricKind is the metric that class computes.
  const metric = renderMetric(m.metricKind ?? m.metric, m.higherIsBetter, spec.taskType);
  const probaSingle = spec.taskType === "classification" && m.targetColumns.length === 1 && wantsProbability(m.metricKind ?? m.metric);
  const classes = m.classes && m.classes.length === m.targetColumns.length ? pyList(m.classes.map(String)) : "None";
  const models = spec.models.map((x, i) => `    ("${x.family}#${i}", lambda: ${modelExpr(x, spec)}),`).join("\n");
  const plan = (opts.plan ?? "").replaceAll('"""', "'''").replaceAll("\\", "/");
  const isTs = spec.modality === "time_series";
  const imports = modelImports(spec);
  if (spec.ensemble === "stack" && spec.models.length > 1) {
    const meta = spec.taskType === "classification" ? "from sklearn.linear_model import LogisticRegression"
      : isTs ? "from scipy.optimize import minimize" : "from sklearn.linear_model import Ridge";
    if (!imports.includes(meta)) imports.push(meta);
  }
  const code = `"""
Task: ${m.name} (${m.modality}, ${spec.taskType}; metric ${m.metric}, ${m.higherIsBetter ? "higher" : "lower"} is better).
${plan}
"""
import os
# Idle OpenMP threads sleep instead of spinning (spinning threads stall badly on a shared CPU).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import time
import warnings

import numpy as np
import pandas as pd
${imports.join("\n")}

warnings.filterwarnings("ignore")
T0 = time.time()

# 1. Settings ---------------------------------------------------------------
DATA_DIR = os.environ["DATA_DIR"]
SEED = ${spec.seed}
N_JOBS = 2
ID_COL = ${pyStr(m.idColumn)}
TRAIN_TARGET = ${pyStr(m.trainTarget)}
TARGET_COLUMNS = ${pyList(m.targetColumns)}
CLASSES = ${classes}
TASK_TYPE = ${pyStr(spec.taskType)}
METRIC = ${pyStr(metric.name)}  # ${metric.exact ? "the task's metric" : `stand-in for "${m.metric}" (same direction)`}
PROBA_OUTPUT = ${probaSingle ? "True" : "False"}  # single target column holds the positive-class probability
MAX_TRAIN_ROWS = ${spec.maxTrainRows ?? "None"}
VALIDATION, FOLDS, HOLDOUT_FRAC = ${pyStr(spec.validation.scheme)}, ${spec.validation.folds}, ${spec.validation.holdoutFrac}
ENSEMBLE = ${pyStr(spec.models.length > 1 ? spec.ensemble : "none")}${spec.models.length > 1 ? `  # ensemble of ${spec.models.length} models` : ""}
WRITER = ${pyStr(spec.writer)}
OFFSETS = {}  # regression targets modelled as differences: per-row values added back to predictions
rng = np.random.RandomState(SEED)

# 2. Data -------------------------------------------------------------------
def read_table(name):
    path = os.path.join(DATA_DIR, name)
    return pd.read_csv(path) if os.path.isfile(path) else None

train = read_table(${pyStr(m.files.train)})
test = read_table(${pyStr(m.files.test)})
sample = read_table(${pyStr(m.files.sampleSubmission)})
if test is None:
    test = sample[[ID_COL]].copy()
if MAX_TRAIN_ROWS and len(train) > MAX_TRAIN_ROWS:
    train = ${isTs ? "train.tail(MAX_TRAIN_ROWS)" : "train.sample(MAX_TRAIN_ROWS, random_state=SEED).sort_index()"}
    train = train.reset_index(drop=True)

def feature_columns(df):
    drop = {ID_COL, TRAIN_TARGET, *TARGET_COLUMNS}
    return [c for c in df.columns if c not in drop]

# 3. Target -----------------------------------------------------------------
if TASK_TYPE == "classification":
    if TRAIN_TARGET in train.columns:
        raw_y = train[TRAIN_TARGET]
    else:  # one column per class in train: the label is the arg-max column
        raw_y = pd.Series(np.array(TARGET_COLUMNS)[train[TARGET_COLUMNS].values.argmax(axis=1)])
        CLASSES = None
    LABELS = sorted(raw_y.astype(str).unique())
    ORIGINAL = {str(v): v for v in raw_y.unique()}
    y = raw_y.astype(str).map({label: i for i, label in enumerate(LABELS)}).values.astype(int)
    N_CLASSES = len(LABELS)
else:
    y = pd.to_numeric(train[TRAIN_TARGET], errors="coerce").astype(float).values
    keep = ~np.isnan(y)
    train, y = train[keep].reset_index(drop=True), y[keep]
    N_CLASSES = 0

def score(y_true, pred):
    """Validation ${metric.name}."""
    ${metric.body}

# 4. Features ---------------------------------------------------------------
${renderFeatures(spec.features)}
# 5. Models -----------------------------------------------------------------
${torchClasses(spec)}
MODELS = [
${models}
]

def fit_predict(make, X_a, y_a, X_b):
    """Fit a fresh model; return class probabilities over all N_CLASSES (classification) or values."""
    model = make()
    if TASK_TYPE != "classification":
        model.fit(X_a, y_a)
        return np.asarray(model.predict(X_b), dtype=float).ravel()
    present = np.unique(y_a)
    P = np.zeros((X_b.shape[0], N_CLASSES))
    if len(present) == 1:
        P[:, present[0]] = 1.0
        return P
    model.fit(X_a, np.searchsorted(present, y_a))  # contiguous 0..k-1 labels (xgboost needs them)
    P[:, present] = model.predict_proba(X_b)
    return P

# 6. Validation -------------------------------------------------------------
${isTs ? "" : `def unseen_group_column(tr, te):
    """A categorical column whose test values never occur in training (speakers, patients, sites):
    validation then holds out whole groups, as the test set does."""
    for c in feature_columns(tr):
        if c in te.columns and tr[c].dtype == object:
            seen, unseen = set(tr[c].dropna().astype(str)), set(te[c].dropna().astype(str))
            if 2 <= len(seen) <= len(tr) / 3 and unseen and not (seen & unseen):
                return c
    return None

GROUP_COL = unseen_group_column(train, test)
if GROUP_COL is not None:
    print(f"validation holds out whole groups of {GROUP_COL!r} (the test set's values of it are all new)")
`}
def splits(n):
    idx = np.arange(n)${isTs ? "" : `
    if GROUP_COL is not None:
        groups = train[GROUP_COL].astype(str).values
        uniq = np.array(sorted(set(groups)))
        if VALIDATION == "kfold":
            from sklearn.model_selection import GroupKFold
            return list(GroupKFold(min(FOLDS, len(uniq))).split(idx, groups=groups))
        held = set(uniq[rng.permutation(len(uniq))[: max(1, int(round(len(uniq) * HOLDOUT_FRAC)))]])
        mask = np.array([g in held for g in groups])
        return [(idx[~mask], idx[mask])]`}
    if VALIDATION == "kfold":
        from sklearn.model_selection import KFold, StratifiedKFold
        if TASK_TYPE == "classification" and np.bincount(y).min() >= FOLDS:
            return list(StratifiedKFold(FOLDS, shuffle=True, random_state=SEED).split(idx, y))
        return list(KFold(FOLDS, shuffle=True, random_state=SEED).split(idx))
    order = ${isTs ? "time_order(train)" : "idx"} if VALIDATION == "time_holdout" else rng.permutation(n)
    cut = int(round(n * (1 - HOLDOUT_FRAC)))
    return [(order[:cut], order[cut:])]
${isTs ? `
def time_order(df):
    tcol = time_column(df)
    t = pd.to_datetime(df[tcol], errors="coerce") if tcol else pd.Series(np.arange(len(df)))
    return np.argsort(t.values, kind="stable")
` : ""}
def stack_matrix(preds):
    return np.column_stack([p if p.ndim == 2 else p.reshape(-1, 1) for p in preds])

${spec.taskType !== "classification" && isTs ? CONVEX_STACK : ""}
def meta_model():
    return ${spec.taskType === "classification" ? "LogisticRegression(C=1.0, max_iter=500)" : isTs ? "ConvexStack()" : "Ridge(alpha=1.0)"}

def combine(preds, Z_fit=None, y_fit=None):
    """Average the models, or apply the stacker fitted on validation predictions."""
    if ENSEMBLE == "stack" and Z_fit is not None:
        return fit_predict(meta_model, Z_fit, y_fit, stack_matrix(preds))
    return np.mean(preds, axis=0)

X_train, X_test = build_features(train, test, y)
off_train = OFFSETS.get("train", np.zeros(len(y))) if TASK_TYPE != "classification" else np.zeros(len(y))
off_test = OFFSETS.get("test", np.zeros(X_test.shape[0])) if TASK_TYPE != "classification" else np.zeros(X_test.shape[0])
y_fit = y - off_train if TASK_TYPE != "classification" else y
print(f"features: train {X_train.shape}, test {X_test.shape} ({time.time() - T0:.1f}s)")
folds = splits(len(y))
${isTs ? `def fold_data(a, b):
    """Honest time-series validation: the holdout is featurised like the test set, from the targets
    before it only (its own targets are unknown), so lags never read the period being predicted."""
    OFFSETS.clear()
    hidden = [c for c in dict.fromkeys([TRAIN_TARGET] + list(TARGET_COLUMNS)) if c in train.columns]
    X_a, X_b = build_features(train.iloc[a].reset_index(drop=True), train.iloc[b].drop(columns=hidden).reset_index(drop=True), y[a])
    o_a = OFFSETS.get("train", np.zeros(len(a))) if TASK_TYPE != "classification" else np.zeros(len(a))
    o_b = OFFSETS.get("test", np.zeros(len(b))) if TASK_TYPE != "classification" else np.zeros(len(b))
    return X_a, (y[a] - o_a if TASK_TYPE != "classification" else y[a]), X_b, o_b
` : `def fold_data(a, b):
    return X_train[a], y_fit[a], X_train[b], off_train[b]
`}
fold_sets = [fold_data(a, b) for a, b in folds]
val_idx = np.concatenate([b for _, b in folds])
off_val = np.concatenate([f[3] for f in fold_sets])
y_val = y[val_idx]
y_val_fit = y_val - off_val if TASK_TYPE != "classification" else y_val
def restore(pred, offset):
    return pred if TASK_TYPE == "classification" else pred + offset
val_preds = []
for name, make in MODELS:
    val_preds.append(np.concatenate([fit_predict(make, X_a, y_a, X_b) for X_a, y_a, X_b, _ in fold_sets]))
    print(f"{name}: validation {METRIC} = {score(y_val, restore(val_preds[-1], off_val)):.5f} ({time.time() - T0:.1f}s)")

Z_val = stack_matrix(val_preds) if ENSEMBLE == "stack" else None
if ENSEMBLE == "stack":  # out-of-fold predictions of the stacker, for an honest score
${isTs ? `    # Forward chaining over the time-ordered holdout: the stacker is applied to later periods than it was
    # fitted on, as on the test set (shuffled folds let it interpolate the trend inside the holdout).
    val_pred = np.mean(val_preds, axis=0)
    blocks = np.array_split(np.arange(len(val_idx)), 3) if VALIDATION == "time_holdout" else []
    for j in range(1, len(blocks)):
        a, b = np.concatenate(blocks[:j]), blocks[j]
        val_pred[b] = fit_predict(meta_model, Z_val[a], y_val_fit[a], Z_val[b])
    if VALIDATION != "time_holdout":
        from sklearn.model_selection import KFold
        for a, b in KFold(3, shuffle=True, random_state=SEED).split(Z_val):
            val_pred[b] = fit_predict(meta_model, Z_val[a], y_val_fit[a], Z_val[b])
` : `    from sklearn.model_selection import KFold
    val_pred = np.zeros_like(val_preds[0])
    for a, b in KFold(3, shuffle=True, random_state=SEED).split(Z_val):
        val_pred[b] = fit_predict(meta_model, Z_val[a], y_val_fit[a], Z_val[b])
`}else:
    val_pred = combine(val_preds)
final_score = score(y_val, restore(val_pred, off_val))

# 7. Refit on all training rows and predict the test set ---------------------
test_pred = restore(combine([fit_predict(make, X_train, y_fit, X_test) for _, make in MODELS], Z_val, y_val_fit), off_test)

# 8. Submission ---------------------------------------------------------------
if TASK_TYPE == "classification" and len(TARGET_COLUMNS) > 1:
    col_labels = [str(c) for c in (CLASSES or TARGET_COLUMNS)]
    pos = {label: i for i, label in enumerate(LABELS)}
    out = pd.DataFrame({c: test_pred[:, pos[l]] if l in pos else 0.0 for c, l in zip(TARGET_COLUMNS, col_labels)})
elif TASK_TYPE == "classification" and PROBA_OUTPUT:
    out = pd.DataFrame({TARGET_COLUMNS[0]: test_pred[:, -1]})
elif TASK_TYPE == "classification":
    out = pd.DataFrame({TARGET_COLUMNS[0]: [ORIGINAL[LABELS[i]] for i in test_pred.argmax(axis=1)]})
else:
    out = pd.DataFrame({TARGET_COLUMNS[0]: test_pred})
out.insert(0, ID_COL, test[ID_COL].values if ID_COL in test.columns else sample[ID_COL].values[: len(out)])
if WRITER == "sample":  # exactly the sample submission's rows (by id) and columns
    position = pd.Series(np.arange(len(out)), index=out[ID_COL].astype(str))
    rows = position[~position.index.duplicated()].reindex(sample[ID_COL].astype(str)).values
    sub = sample.copy()
    for c in TARGET_COLUMNS:
        values = out[c].values
        filler = pd.Series(values).mode().iloc[0] if values.dtype == object else float(np.mean(values))
        sub[c] = [values[int(r)] if r == r else filler for r in rows]
    out = sub[list(sample.columns)]
out.to_csv("submission.csv", index=False)
print(f"wrote submission.csv {out.shape} ({time.time() - T0:.1f}s)")
print(f"Final Validation Score: {final_score:.6f}")
`;
  return opts.trace ? `${code}${TRACE_PREFIX}${JSON.stringify(opts.trace.map((t) => [t.name, t.value]))}\n` : code;
}

/** The decision trace embedded in a rendered program, or null when it has none. */
export function traceFromProgram(code: string): TraceStep[] | null {
  const line = code.split("\n").reverse().find((l) => l.startsWith(TRACE_PREFIX));
  if (!line) return null;
  const pairs = JSON.parse(line.slice(TRACE_PREFIX.length)) as [string, string][];
  return pairs.map(([name, value]) => ({ name, value }));
}
