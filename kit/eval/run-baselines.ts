import type { TaskPackage } from "../gym/index.js";
import { runSandbox, type ExecutionRecord, type RunSandboxOptions, type SandboxJob } from "../sandbox/index.js";
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
 *   On an audio task the features are instead each clip's MFCC summary (AUDIO_FEATURES).
 * Tasks with CSV train/test files (tabular, time series with date columns, text in columns, audio files);
 * the column kinds come from the package's metadata (`task.json` columns), so an image task whose features
 * are only files gets no reference (it raises "no usable feature columns").
 */
export type BaselineKind = "trivial" | "reference";

function metaJson(task: TaskPackage): string {
  const m = task.meta;
  return JSON.stringify({
    train: m.files.train,
    test: m.files.test,
    id: m.idColumn,
    targets: m.targetColumns,
    target: m.trainTarget,
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

/**
 * The audio reference's features, numpy/scipy only: per 25 ms hann frame (half-frame hop) the first 13
 * MFCCs (DCT of the log energies of 40 mel bands, 20 Hz to min(sr/2, 8 kHz)); per clip their mean and
 * standard deviation over frames (26 numbers), read from the first column naming audio files, standardised.
 */
const AUDIO_FEATURES = `from scipy import signal
from scipy.fft import dct
from scipy.io import wavfile
def mfcc_summary(path):
    if path.lower().endswith(".wav"):
        sr, x = wavfile.read(path)
    else:
        import soundfile
        x, sr = soundfile.read(path)
    x = np.asarray(x, dtype=float)
    x = (x.mean(axis=1) if x.ndim > 1 else x) / (np.abs(x).max() + 1e-9)
    n = int(sr * 0.025)
    x = np.pad(x, (0, max(0, n - len(x))))
    freqs, _, S = signal.spectrogram(x, fs=sr, window="hann", nperseg=n, noverlap=n // 2)
    mel = lambda hz: 2595.0 * np.log10(1.0 + hz / 700.0)
    edges = 700.0 * (10 ** (np.linspace(mel(20.0), mel(min(sr / 2.0, 8000.0)), 42) / 2595.0) - 1.0)
    fb = np.stack([np.clip(np.minimum((freqs - a) / (b - a), (c - freqs) / (c - b)), 0, None) for a, b, c in zip(edges, edges[1:], edges[2:])])
    C = dct(np.log(fb @ S + 1e-10), type=2, axis=0, norm="ortho")[:13]
    return np.concatenate([C.mean(axis=1), C.std(axis=1)])
def audio_matrix(df):
    col = next(c for c in df.columns if df[c].dtype == object and df[c].astype(str).str.lower().str.endswith((".wav", ".flac", ".ogg")).mean() > 0.5)
    return np.stack([mfcc_summary(os.path.join(data, p)) for p in df[col].astype(str)])
A_tr, A_te = audio_matrix(train), audio_matrix(test)
scaler = StandardScaler().fit(A_tr)
Xtr, Xte = [sparse.csr_matrix(scaler.transform(A_tr))], [sparse.csr_matrix(scaler.transform(A_te))]
`;

/**
 * The tabular reference's features: numeric + one-hot categoricals (<= 20 levels), dates as days/year/one-hot
 * month, median imputation, standardisation of that dense block, then TF-IDF blocks of the text columns.
 */
const TABULAR_FEATURES = `drop = {META["id"], META["target"], *META["targets"]}
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
`;

/**
 * The reference's data loading and features as one Python block, shared by the reference baseline and the
 * reference zoo (reference-zoo.ts). It defines META (the task's files, id, targets, date and text columns),
 * `train`, `test`, `y` (the train target), `sub` (the id column of test), `multi` (one column per class), and
 * `Xtr`/`Xte`: lists of sparse blocks, empty when the task has no usable feature columns. On a tabular task
 * the first block is the standardised dense part and, when the task has text columns (`texts`), the last block
 * is their TF-IDF; on an audio task the one block is the standardised MFCC summary.
 */
export function featureCode(task: TaskPackage): string {
  return `${PRELUDE(task)}
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import StandardScaler
${task.meta.modality === "audio" ? AUDIO_FEATURES : TABULAR_FEATURES}`;
}

/** Python source of one baseline program for a task with CSV train/test (tabular columns, or audio files). */
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
  return `${featureCode(task)}from sklearn.linear_model import LogisticRegression, Ridge
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
 * (null when a baseline did not succeed; its execution record says why). With `evaluate` (e.g. the queue
 * client's), the programs run through it and the other options are unused.
 */
export async function runBaselines(
  task: TaskPackage,
  opts: Omit<RunSandboxOptions, "task" | "code"> & {
    readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  } = {},
): Promise<BaselineScores> {
  const { train, test } = task.meta.files;
  if (!train.endsWith(".csv") || !test.endsWith(".csv")) {
    throw new EvalError(
      `runBaselines: task ${task.meta.id} is not tabular (train ${train}, test ${test}); baselines ` +
        `need CSV train/test files.`,
    );
  }
  const { evaluate, ...sandbox } = opts;
  const run = evaluate ?? ((job: SandboxJob) => runSandbox({ ...sandbox, ...job }));
  const trivial = await run({ task, code: baselineProgram(task, "trivial") });
  const reference = await run({ task, code: baselineProgram(task, "reference") });
  return { trivial: trivial.testScore, reference: reference.testScore, records: { trivial, reference } };
}
