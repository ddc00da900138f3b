import type { TaskPackage } from "../gym/index.js";
import { runSandbox, type ExecutionRecord, type RunSandboxOptions } from "../sandbox/index.js";
import { EvalError } from "./errors.js";

/**
 * The two baselines of the normalised score (normalized-score.ts), as programs the kit runs in the
 * sandbox like any candidate, so they are scored by the task's own hidden metric:
 * - trivial: a constant prediction — the majority class (class frequencies for probability columns) or
 *   the training mean for regression;
 * - reference: a fixed simple model — numeric features plus one-hot categoricals (<= 20 levels), median
 *   imputation, standardisation, then LogisticRegression(max_iter=1000) or Ridge(alpha=1).
 * Tabular tasks with CSV train/test files only.
 */
export type BaselineKind = "trivial" | "reference";

function metaJson(task: TaskPackage): string {
  const m = task.meta;
  return JSON.stringify({
    train: m.files.train, test: m.files.test, id: m.idColumn, targets: m.targetColumns, target: m.trainTarget,
    classification: m.taskType === "classification",
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
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
drop = {META["id"], META["target"], *META["targets"]}
cols = [c for c in train.columns if c not in drop and c in test.columns]
num = [c for c in cols if pd.api.types.is_numeric_dtype(train[c])]
cat = [c for c in cols if c not in num and train[c].nunique() <= 20]
both = pd.concat([train[num + cat], test[num + cat]], keys=["tr", "te"])
X = pd.get_dummies(both, columns=cat, dummy_na=True).astype(float)
X = X.fillna(X.loc["tr"].median()).fillna(0.0)
Xtr, Xte = X.loc["tr"].values, X.loc["te"].values
if Xtr.shape[1] == 0:
    raise SystemExit("reference baseline: no usable feature columns")
if META["classification"]:
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(Xtr, y)
    if multi:
        proba = model.predict_proba(Xte)
        names = [str(c) for c in model.classes_]
        for col in META["targets"]:
            sub[col] = proba[:, names.index(str(col))] if str(col) in names else 0.0
    else:
        sub[META["targets"][0]] = model.predict(Xte)
else:
    sub[META["targets"][0]] = make_pipeline(StandardScaler(), Ridge(alpha=1.0)).fit(Xtr, y).predict(Xte)
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
