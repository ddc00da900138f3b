"""Deterministic data checks of a task package (the metric checks live in metric_harness.py verify).

  task_checks.py <public dir> <answers csv> <options json>
options: {"id_column", "train_target", "target_columns", "task_type", "train", "test", "sample"}
Prints `OPENMLE_RESULT {"ok": true, "checks": [{name, status, message, evidence}]}`.
status: pass | warn | fail | skip.
"""
import hashlib
import json
import os
import sys

import numpy as np
import pandas as pd

LEAK_FAIL, LEAK_WARN = 0.99, 0.97
MIN_TRAIN, MIN_TEST = 100, 20


def check(name, status, message, **evidence):
    return {"name": name, "status": status, "message": message, "evidence": evidence}


def file_hash(path):
    with open(path, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def row_keys(df, cols, public):
    """One string per row: the feature values, with referenced files replaced by their content hash."""
    parts = []
    for c in cols:
        s = df[c]
        if s.dtype == object and s.dropna().astype(str).str.match(r"^(train|test)/").mean() > 0.9:
            s = s.map(lambda p: file_hash(os.path.join(public, p)) if isinstance(p, str) and os.path.isfile(os.path.join(public, p)) else p)
        parts.append(s.astype(str))
    if not parts:
        return pd.Series([], dtype=str)
    out = parts[0]
    for p in parts[1:]:
        out = out + "\x1f" + p
    return out


def is_classification(o, y):
    return o["task_type"] == "classification" or (not pd.api.types.is_numeric_dtype(y)) or y.nunique() <= 20


def leakage(train, features, target, classification):
    from sklearn.model_selection import cross_val_score
    from sklearn.tree import DecisionTreeClassifier
    y = train[target]
    worst = {"feature": None, "score": 0.0, "rule": None}
    n = len(train)
    base = float(y.astype(str).value_counts(normalize=True).iloc[0]) if classification else 0.0
    for f in features:
        x = train[f]
        num = pd.api.types.is_numeric_dtype(x)
        if classification:
            if num:
                ok = x.notna()
                if ok.sum() < 20 or y[ok].astype(str).nunique() < 2:
                    continue
                folds = int(min(3, y[ok].astype(str).value_counts().min()))
                if folds < 2:
                    continue
                score = float(np.mean(cross_val_score(DecisionTreeClassifier(max_depth=3, random_state=0), x[ok].values.reshape(-1, 1), y[ok].astype(str), cv=folds)))
                rule = "depth-3 tree on this feature alone (cross-validated accuracy)"
            else:
                s = x.astype(str)
                if s.nunique() > n / 5:
                    ys = y.astype(str).str.lower()
                    hit = [lab for lab in ys.unique() if len(lab) >= 3]
                    if not hit:
                        continue
                    text = s.str.lower()
                    pred = pd.Series([next((lab for lab in hit if lab in t), None) for t in text], index=s.index)
                    score = float((pred == ys).mean())
                    rule = "the label's own word appears in this text"
                else:
                    purity = pd.crosstab(s, y.astype(str)).max(axis=1).sum() / n
                    score, rule = float(purity), "majority label per value of this feature (purity)"
            if score > worst["score"] and score > base + 0.02:
                worst = {"feature": f, "score": round(score, 4), "rule": rule}
        elif num:
            ok = x.notna() & y.notna()
            if ok.sum() < 10 or x[ok].std() == 0 or y[ok].std() == 0:
                continue
            r = abs(float(np.corrcoef(x[ok].astype(float), y[ok].astype(float))[0, 1]))
            rs = abs(float(pd.Series(x[ok]).rank().corr(pd.Series(y[ok]).rank())))
            score = max(r, rs)
            if score > worst["score"]:
                worst = {"feature": f, "score": round(score, 4), "rule": "absolute correlation with the target (Pearson or Spearman)"}
    status = "fail" if worst["score"] >= LEAK_FAIL else "warn" if worst["score"] >= LEAK_WARN else "pass"
    msg = {"pass": "no single feature predicts the target", "warn": f"feature {worst['feature']!r} nearly predicts the target",
           "fail": f"feature {worst['feature']!r} predicts the target ({worst['rule']}: {worst['score']}). Fix: drop it in the spec (drop: [...])."}[status]
    return check("target_leakage", status, msg, **worst, majority_baseline=round(base, 4), threshold=LEAK_FAIL)


def main(public, answers_path, o):
    train = pd.read_csv(os.path.join(public, o.get("train") or "train.csv"))
    test = pd.read_csv(os.path.join(public, o.get("test") or "test.csv"))
    answers = pd.read_csv(answers_path)
    sample = pd.read_csv(os.path.join(public, o.get("sample") or "sample_submission.csv"))
    idc, target = o["id_column"], o["train_target"]
    out = []

    # 1. The same id on both sides of the split; answers for exactly the test ids.
    if idc in train.columns and idc in test.columns:
        both = sorted(set(train[idc].astype(str)) & set(test[idc].astype(str)))
        out.append(check("id_overlap", "fail" if both else "pass",
                         f"{len(both)} id(s) are in both train and test" if both else "train and test ids are disjoint", count=len(both), examples=both[:5]))
    else:
        out.append(check("id_overlap", "skip", f"id column {idc!r} is not in both train.csv and test.csv"))
    ta, tt = set(answers[idc].astype(str)) if idc in answers.columns else set(), set(test[idc].astype(str)) if idc in test.columns else set()
    out.append(check("answers_match_test", "pass" if ta == tt and len(answers) == len(test) else "fail",
                     "test_answer.csv holds one row per test id" if ta == tt else "test_answer.csv ids differ from test.csv ids",
                     answers_rows=len(answers), test_rows=len(test), missing=len(tt - ta), extra=len(ta - tt)))

    # 2. Duplicate feature rows across the split (file contents compared by hash).
    feats = [c for c in test.columns if c != idc and c in train.columns and c != target]
    if feats:
        ktr, kte = set(row_keys(train, feats, public)), row_keys(test, feats, public)
        dup = float(kte.isin(ktr).mean()) if len(kte) else 0.0
        status = "fail" if dup > 0.05 else "warn" if dup > 0 else "pass"
        out.append(check("duplicates_across_split", status, f"{dup:.1%} of test rows repeat a train row's features", share=round(dup, 4), features=len(feats)))
    else:
        out.append(check("duplicates_across_split", "skip", "no shared feature columns"))

    # 3. Target leakage and 4. degenerate target.
    if target not in train.columns:
        out.append(check("target_leakage", "skip", f"train.csv has no target column {target!r}"))
        out.append(check("degenerate_target", "fail", f"train.csv has no target column {target!r}. Fix: train.csv must hold the target."))
    else:
        y = train[target].dropna()
        cls = is_classification(o, y)
        feature_cols = [c for c in train.columns if c not in (idc, target) and c not in o["target_columns"]]
        out.append(leakage(train[train[target].notna()].reset_index(drop=True), feature_cols, target, cls))
        if cls:
            counts = y.astype(str).value_counts()
            share = float(counts.iloc[0] / counts.sum()) if len(counts) else 1.0
            status = "fail" if len(counts) < 2 or share >= 0.99 else "warn" if counts.min() < 5 else "pass"
            msg = ("the target has one class" if len(counts) < 2 else f"one class holds {share:.1%} of train rows" if share >= 0.99
                   else f"class {counts.index[-1]!r} has only {int(counts.min())} train rows" if status == "warn" else f"{len(counts)} classes, largest {share:.1%}")
            out.append(check("degenerate_target", status, msg + (". Fix: choose another target or more data." if status == "fail" else ""),
                             classes=int(len(counts)), majority_share=round(share, 4), smallest_class=int(counts.min()) if len(counts) else 0))
        else:
            std = float(y.astype(float).std()) if len(y) > 1 else 0.0
            out.append(check("degenerate_target", "fail" if std == 0 else "pass",
                             "the target is constant. Fix: choose another target." if std == 0 else f"target std {std:.4g}", std=std, unique=int(y.nunique())))

    # 5. Too little data.
    status = "fail" if len(train) < MIN_TRAIN or len(test) < MIN_TEST else "pass"
    out.append(check("too_little_data", status, f"{len(train)} train / {len(test)} test rows"
                     + (f"; at least {MIN_TRAIN} / {MIN_TEST} are needed. Fix: supply more data or a smaller test share." if status == "fail" else ""),
                     train_rows=len(train), test_rows=len(test), min_train=MIN_TRAIN, min_test=MIN_TEST))

    # 6. Answers visible under public/.
    problems = []
    hidden = [c for c in [target] + list(o["target_columns"]) if c in test.columns and c != idc]
    if hidden:
        problems.append(f"test.csv has target column(s) {hidden}")
    ahash = file_hash(answers_path)
    for root, _, files in os.walk(public):
        for f in files:
            p = os.path.join(root, f)
            if "answer" in f.lower() or (f.endswith(".csv") and file_hash(p) == ahash):
                problems.append(f"{os.path.relpath(p, public)} holds the answers")
    cols = [c for c in answers.columns if c != idc and c in sample.columns]
    if cols and len(sample) == len(answers) and len(answers) > 1 and sample[cols].astype(str).reset_index(drop=True).equals(answers[cols].astype(str).reset_index(drop=True)):
        problems.append("sample_submission.csv equals the answers")
    out.append(check("answers_not_public", "fail" if problems else "pass", "; ".join(problems) or "no answers under data/public", problems=problems))
    return {"ok": True, "checks": out}


if __name__ == "__main__":
    try:
        res = main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))
    except Exception as e:
        res = {"ok": False, "message": f"{type(e).__name__}: {e}"}
    sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(res, default=str) + "\n")
