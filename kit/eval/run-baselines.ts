import type { TaskPackage } from "../gym/index.js";
import { runSandbox, type ExecutionRecord, type RunSandboxOptions } from "../sandbox/index.js";
import { EvalError } from "./errors.js";

/**
 * The two baselines of the normalised score (normalized-score.ts), as programs the kit runs in the
 * sandbox like any candidate, so they are scored by the task's own hidden metric:
 * - trivial: a constant prediction — the majority class (class frequencies for probability columns) or
 *   the training mean for regression;
 * - reference: a fixed simple model — numeric features plus one-hot categoricals (<= 20 levels), date
 *   columns as (days since 1970, year, one-hot month), text columns as TF-IDF (word 1–2-grams, at most
 *   20,000 terms, sublinear tf), median imputation, standardisation of the dense part, then
 *   LogisticRegression(max_iter=1000) or Ridge(alpha=1).
 * Tasks with CSV train/test files (tabular, time series with date columns, text in columns); the column
 * kinds come from the package's metadata (`task.json` columns), so image and audio tasks whose features
 * are files get no reference (it raises "no usable feature columns").
 */
export type BaselineKind = "trivial" | "reference";

function metaJson(task: TaskPackage): string {
  const m = task.meta;
  return JSON.stringify({
    train: m.files.train, test: m.files.test, id: m.idColumn, targets: m.targetColumns, target: m.trainTarget,
    classification: m.taskType === "classification",
    dates: (m.columns ?? []).filter((c) => c.kind === "datetime").map((c) => c.name),
    texts: (m.columns ?? []).filter((c) => c.kind === "text").map((c) => c.name),
  });
}

const PRELUDE = (task: TaskPackage) => `import json, os
import numpy as np
import pandas as pd
META = json.loads(${JSON.stringify(metaJson(task))})
data = os.environ["DATA_DIR"]
train = pd.read_csv(os.path.join(data, META["train"]))
test = pd.read_csv(os.path.join(data, META["test"]))
y = train[META["target"]]
sub = pd.DataFrame({META["id"]: test[META["id"]]})
multi = len(META["targets"]) > 1
`;

/** Python source of one baseline program for a tabular task. */
export function baselineProgram(task: TaskPackage, kind: BaselineKind): string {
  if (kind === "trivial") {
    return `${PRELUDE(task)}
if META["classification"] and multi:
    freq = {str(k): v for k, v in y.value_counts(normalize=True).items()}
    for col in META["targets"]:
        sub[col] = freq.get(str(col), 0.0)
elif META["classification"]:
    sub[META["targets"][0]] = y.mode().iloc[0]
else:
    sub[META["targets"][0]] = float(y.mean())
sub.to_csv("submission.csv", index=False)
`;
  }
  return `${PRELUDE(task)}
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.preprocessing import StandardScaler
drop = {META["id"], META["target"], *META["targets"]}
cols = [c for c in train.columns if c not in drop and c in test.columns]
dates = [c for c in META["dates"] if c in cols]
texts = [c for c in META["texts"] if c in cols]
num = [c for c in cols if c not in dates + texts and pd.api.types.is_numeric_dtype(train[c])]
cat = [c for c in cols if c not in num + dates + texts and train[c].nunique() <= 20]
both = pd.concat([train[cols], test[cols]], keys=["tr", "te"])
parts = [both[num + cat]]
for c in dates:
    d = pd.to_datetime(both[c], errors="coerce")
    parts.append(pd.DataFrame({f"{c}__days": (d - pd.Timestamp("1970-01-01")).dt.days, f"{c}__year": d.dt.year, f"{c}__month": d.dt.month.astype("string")}, index=both.index))
    cat.append(f"{c}__month")
F = pd.concat(parts, axis=1)
X = (pd.get_dummies(F, columns=cat, dummy_na=True) if F.shape[1] else F).astype(float)
X = X.fillna(X.loc["tr"].median()).fillna(0.0)
scaler = StandardScaler().fit(X.loc["tr"].values) if X.shape[1] else None
Xtr = [sparse.csr_matrix(scaler.transform(X.loc["tr"].values))] if scaler else []
Xte = [sparse.csr_matrix(scaler.transform(X.loc["te"].values))] if scaler else []
if texts:
    doc = lambda df: df[texts].fillna("").astype(str).agg(" ".join, axis=1)
    tfidf = TfidfVectorizer(ngram_range=(1, 2), max_features=20000, sublinear_tf=True).fit(doc(train))
    Xtr.append(tfidf.transform(doc(train)))
    Xte.append(tfidf.transform(doc(test)))
if not Xtr:
    raise SystemExit("reference baseline: no usable feature columns")
Xtr, Xte = sparse.hstack(Xtr).tocsr(), sparse.hstack(Xte).tocsr()
if META["classification"]:
    model = LogisticRegression(max_iter=1000).fit(Xtr, y)
    if multi:
        proba = model.predict_proba(Xte)
        names = [str(c) for c in model.classes_]
        for col in META["targets"]:
            sub[col] = proba[:, names.index(str(col))] if str(col) in names else 0.0
    else:
        sub[META["targets"][0]] = model.predict(Xte)
else:
    sub[META["targets"][0]] = Ridge(alpha=1.0).fit(Xtr, y).predict(Xte)
sub.to_csv("submission.csv", index=False)
`;
}

export interface BaselineScores {
  readonly trivial: number | null;
  readonly reference: number | null;
  readonly records: { readonly trivial: ExecutionRecord; readonly reference: ExecutionRecord };
}

/**
 * Run both baselines of a tabular task in the sandbox and return their hidden test scores
 * (null when a baseline did not succeed; its execution record says why).
 */
export async function runBaselines(task: TaskPackage, opts: Omit<RunSandboxOptions, "task" | "code"> = {}): Promise<BaselineScores> {
  const { train, test } = task.meta.files;
  if (!train.endsWith(".csv") || !test.endsWith(".csv")) {
    throw new EvalError(`runBaselines: task ${task.meta.id} is not tabular (train ${train}, test ${test}); baselines need CSV train/test files.`);
  }
  const trivial = await runSandbox({ ...opts, task, code: baselineProgram(task, "trivial") });
  const reference = await runSandbox({ ...opts, task, code: baselineProgram(task, "reference") });
  return { trivial: trivial.testScore, reference: reference.testScore, records: { trivial, reference } };
}
