"""Deterministic split of this task's raw data (written by the OpenMLE kit's buildTask).

prepare(raw, public, private) reads raw/<table>, splits it (random, stratified, time-ordered or by
group, with a fixed seed) and writes data/public (train, test, sample submission) and
data/private/test_answer.csv. Running it twice gives byte-identical files. What the task spec says
(table, target, columns, split) is data in prepare_config.json beside this file; this code is the
same for every package.
"""
import json
import math
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd

_CONFIG_FILE = Path(__file__).resolve().parent / "prepare_config.json"
if not _CONFIG_FILE.is_file():
    raise FileNotFoundError(f"{_CONFIG_FILE} is missing. Fix: rebuild the package (openmle task build).")
CONFIG = json.loads(_CONFIG_FILE.read_text(encoding="utf-8"))


def _read(raw):
    name = CONFIG["table"]
    path = raw / name
    if not path.exists():
        raise FileNotFoundError(f"raw/{name} is missing. Fix: put the raw table there or point the spec's table at it.")
    try:
        if path.suffix == ".json":
            return pd.read_json(path)
        if path.suffix == ".jsonl":
            return pd.read_json(path, lines=True)
        return pd.read_csv(path)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()


def _test_mask(df):
    s = CONFIG["split"]
    n, size, rng = len(df), s["testSize"], np.random.RandomState(s["seed"])
    mask = np.zeros(n, dtype=bool)
    if s["kind"] == "random":
        mask[rng.permutation(n)[: max(1, int(math.ceil(n * size)))]] = True
    elif s["kind"] == "stratified":
        labels = df[CONFIG["target"]].astype(str).values
        for cls in sorted(set(labels)):
            idx = np.flatnonzero(labels == cls)
            k = int(round(len(idx) * size))
            if len(idx) >= 2:
                k = min(max(k, 1), len(idx) - 1)
            mask[idx[rng.permutation(len(idx))[:k]]] = True
    elif s["kind"] == "time":
        order = np.argsort(_time_key(df), kind="mergesort")
        mask[order[n - max(1, int(math.ceil(n * size))):]] = True
    elif s["kind"] == "group":
        col = s["groupColumn"]
        groups = df[col].astype(str).values
        uniq = sorted(set(groups))
        taken = 0
        for g in [uniq[i] for i in rng.permutation(len(uniq))]:
            if taken >= n * size:
                break
            hit = groups == g
            mask |= hit
            taken += int(hit.sum())
    else:
        raise ValueError(f"unknown split kind {s['kind']!r}")
    return mask


def _time_key(df):
    col = CONFIG["split"]["timeColumn"]
    v = df[col]
    if pd.api.types.is_numeric_dtype(v):
        return v.values
    return pd.to_datetime(v).values.astype("int64")


def prepare(raw: Path, public: Path, private: Path):
    c = CONFIG
    raw, public, private = Path(raw), Path(public), Path(private)
    df = _read(raw)
    if len(df) == 0 or len(df.columns) == 0:
        raise ValueError(f"raw/{c['table']} has no rows. Fix: point the spec's table at a file with data.")
    target, id_col = c["target"], c["idColumn"]
    if target not in df.columns:
        raise KeyError(f"target column {target!r} is not in raw/{c['table']}; its columns are {list(df.columns)}. Fix: set the spec's target to one of them.")
    for need in [c["split"].get("timeColumn"), c["split"].get("groupColumn"), c.get("fileColumn")]:
        if need and need not in df.columns:
            raise KeyError(f"column {need!r} named in the spec is not in raw/{c['table']}; its columns are {list(df.columns)}. Fix: correct the spec.")
    df = df.drop(columns=[x for x in c["drop"] if x in df.columns])
    df = df[df[target].notna()].reset_index(drop=True)
    if c.get("maxRows") and len(df) > c["maxRows"]:
        df = df.sample(n=c["maxRows"], random_state=c["split"]["seed"]).sort_index().reset_index(drop=True)
    if len(df) < 10:
        raise ValueError(f"raw/{c['table']} has {len(df)} rows with a target; at least 10 are needed. Fix: supply more data.")
    if id_col not in df.columns:
        # Random ids, so that neither the id nor the row order tells anything about the target.
        df.insert(0, id_col, np.random.RandomState(c["split"]["seed"] + 1).permutation(len(df)))
    elif df[id_col].duplicated().any():
        raise ValueError(f"id column {id_col!r} in raw/{c['table']} repeats values. Fix: pick a unique id column or drop it to get generated ids.")
    df = df[[id_col] + [x for x in df.columns if x != id_col]]

    output = c["output"]
    if output == "proba_binary":
        classes = sorted(df[target].astype(str).unique())
        if len(classes) != 2:
            raise ValueError(f"metric {c['metric']} needs a binary target; {target!r} has {len(classes)} classes. Fix: use roc_auc_ovr or log_loss.")
        positive = str(c.get("positiveClass") or classes[1])
        df[target] = (df[target].astype(str) == positive).astype(int)

    is_test = _test_mask(df)
    if c["split"]["kind"] == "time":
        order = np.argsort(_time_key(df), kind="mergesort")
        df, is_test = df.iloc[order].reset_index(drop=True), is_test[order]
    else:
        order = np.argsort(df[id_col].values, kind="mergesort")
        df, is_test = df.iloc[order].reset_index(drop=True), is_test[order]
    train, test = df[~is_test].copy(), df[is_test].copy()
    if len(train) == 0 or len(test) == 0:
        raise ValueError(f"the split left {len(train)} train and {len(test)} test rows. Fix: change the split's testSize or kind.")

    for d in (public, private):
        d.mkdir(parents=True, exist_ok=True)
    fcol = c.get("fileColumn")
    if fcol:
        for part, frame in (("train", train), ("test", test)):
            (public / part).mkdir(exist_ok=True)
            new = []
            for ident, rel in zip(frame[id_col], frame[fcol]):
                src = raw / c["filesDir"] / str(rel)
                if not src.exists():
                    raise FileNotFoundError(f"raw/{c['filesDir']}/{rel} (named in column {fcol!r}) is missing. Fix: add the file or drop its row.")
                dst = f"{part}/{ident}{src.suffix}"
                shutil.copyfile(src, public / dst)
                new.append(dst)
            frame[fcol] = new

    train.to_csv(public / "train.csv", index=False)
    test.drop(columns=[target]).to_csv(public / "test.csv", index=False)
    answers, sample = test[[id_col]].copy(), test[[id_col]].copy()
    if output == "proba_multi":
        classes = sorted(df[target].astype(str).unique())
        freq = train[target].astype(str).value_counts(normalize=True)
        for cls in classes:
            answers[cls] = (test[target].astype(str) == cls).astype(int)
            sample[cls] = round(float(freq.get(cls, 0.0)), 6)
    elif output == "ranking":
        answers[target] = test[target]
        sample[target] = " ".join(str(x) for x in train[target].value_counts().index[: c.get("k", 3)])
    elif output == "label":
        answers[target] = test[target]
        sample[target] = train[target].value_counts().index[0]
    elif output == "proba_binary":
        answers[target] = test[target]
        sample[target] = 0.5
    else:
        answers[target] = test[target]
        sample[target] = round(float(train[target].median() if c["metric"] == "rmsle" else train[target].mean()), 6)
    answers.to_csv(private / "test_answer.csv", index=False)
    sample.to_csv(public / "sample_submission.csv", index=False)


if __name__ == "__main__":
    here = Path(__file__).resolve().parent.parent
    prepare(here / "raw", here / "data" / "public", here / "data" / "private")
