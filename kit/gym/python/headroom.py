"""Headroom of a task package: a constant baseline against quick reference models (issue 27, the funnel).

  headroom.py <public dir> <utils dir> <options json>
options: {"id_column", "train_target", "target_columns", "modality", "higher_is_better",
          "validation_share", "classes"}
Prints `OPENMLE_RESULT {"ok": true, "constant", "reference", "reference_model", "scores", "seconds"}`.

1. Split the PUBLIC train table into fit / validation the way the package splits train / test (its
   utils/prepare_config.json): time -> the latest rows by the time column; group -> whole groups; else a
   seeded stratified (classification) or random share. Without a prepare config: seeded random.
2. The constant baseline: the mean (median for mae / rmsle), the majority class, or the fit's class priors
   for probability metrics (top-k frequent classes for rankings).
3. Quick reference models on the fit rows: HistGradientBoosting and a linear model (Ridge /
   LogisticRegression) on numeric + one-hot categoricals; TF-IDF + linear for text columns; downsampled
   grey pixels (PIL, 16 x 16) + linear for image files (boosting there is too slow for the budget).
4. Every prediction is shaped as the submission (labels, one probability, per-class probabilities, a
   value or a ranking) and scored by the package's own utils/metric.py through metric_harness.py; the
   reference is the best model on validation.
"""
import json
import math
import os
import sys
import time
import warnings

# One thread: the funnel runs several harnesses at once on few cores, where OpenMP's spinning threads
# made a gradient-boosting fit on 1,000 images take minutes instead of seconds.
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import numpy as np
import pandas as pd

import metric_harness as mh  # beside this file (the harness folder is mounted in the jail)

warnings.filterwarnings("ignore")
IMAGE_EXT = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff")
PIXELS = 16


def labels(s):
    """Class labels as strings, integral numbers without '.0' (as metric.py's _norm compares them)."""
    if pd.api.types.is_numeric_dtype(s):
        return pd.Series([str(int(v)) if float(v).is_integer() else str(v) for v in s], index=s.index)
    return s.astype(str).str.strip()


def split_rows(train, cfg, target, classification, share):
    """Boolean mask of validation rows, mirroring prepare.py's split kinds on the public train table."""
    s = (cfg or {}).get("split") or {"kind": "random", "seed": 0}
    n, rng = len(train), np.random.RandomState(int(s.get("seed", 0)))
    mask = np.zeros(n, dtype=bool)
    kind = s.get("kind", "random")
    if kind == "time" and s.get("timeColumn") in train.columns:
        v = train[s["timeColumn"]]
        key = v.values if pd.api.types.is_numeric_dtype(v) else pd.to_datetime(v).values.astype("int64")
        order = np.argsort(key, kind="mergesort")
        mask[order[n - max(1, int(math.ceil(n * share))):]] = True
    elif kind == "group" and s.get("groupColumn") in train.columns:
        groups = train[s["groupColumn"]].astype(str).values
        uniq = sorted(set(groups))
        taken = 0
        for g in [uniq[i] for i in rng.permutation(len(uniq))]:
            if taken >= n * share:
                break
            hit = groups == g
            mask |= hit
            taken += int(hit.sum())
    elif classification:
        y = labels(train[target]).values
        for cls in sorted(set(y)):
            idx = np.flatnonzero(y == cls)
            k = min(max(int(round(len(idx) * share)), 1), len(idx) - 1) if len(idx) >= 2 else 0
            mask[idx[rng.permutation(len(idx))[:k]]] = True
    else:
        mask[rng.permutation(n)[: max(1, int(math.ceil(n * share)))]] = True
    if mask.all() or not mask.any():
        raise ValueError(f"the {kind} split of {n} train rows left no fit or no validation rows")
    return mask


def column_roles(df, exclude, file_col):
    """numeric, categorical, text and date columns of the features (ids and near-unique strings left out)."""
    num, cat, text, dates = [], [], [], []
    for c in df.columns:
        if c in exclude or c == file_col:
            continue
        s = df[c]
        if pd.api.types.is_bool_dtype(s):
            num.append(c)
        elif pd.api.types.is_numeric_dtype(s):
            num.append(c)
        else:
            v = s.dropna().astype(str)
            if len(v) and v.str.split().str.len().mean() >= 5:
                text.append(c)
            elif len(v) and v.str.match(r"^\d{4}-\d{2}-\d{2}").mean() > 0.9:
                dates.append(c)
            elif v.nunique() <= max(50, 0.2 * len(v)):
                cat.append(c)
    return num, cat, text, dates


def tabular_matrix(fit, val, num, cat, dates):
    """Numeric (median-imputed) + dates as days + one-hot of the fit's 50 commonest levels per categorical."""
    parts_f, parts_v = [], []
    for c in num:
        f, v = fit[c].astype(float), val[c].astype(float)
        med = f.median() if f.notna().any() else 0.0
        parts_f.append(f.fillna(med).values[:, None])
        parts_v.append(v.fillna(med).values[:, None])
    for c in dates:
        f = pd.to_datetime(fit[c], errors="coerce").values.astype("int64") / 8.64e13
        v = pd.to_datetime(val[c], errors="coerce").values.astype("int64") / 8.64e13
        parts_f.append(f[:, None])
        parts_v.append(v[:, None])
    for c in cat:
        f, v = fit[c].astype(str), val[c].astype(str)
        levels = f.value_counts().index[:50]
        parts_f.append(np.stack([(f == lv).values for lv in levels], axis=1).astype(float))
        parts_v.append(np.stack([(v == lv).values for lv in levels], axis=1).astype(float))
    if not parts_f:
        return None, None
    return np.hstack(parts_f), np.hstack(parts_v)


def pixels(public, paths):
    from PIL import Image
    out = np.zeros((len(paths), PIXELS * PIXELS), dtype=np.float32)
    for i, p in enumerate(paths):
        with Image.open(os.path.join(public, str(p))) as im:
            out[i] = np.asarray(im.convert("L").resize((PIXELS, PIXELS)), dtype=np.float32).ravel() / 255.0
    return out


def models(classification, n_classes=2):
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    if classification:
        return {
            # Multi-class boosting fits one tree per class per round: fewer rounds keep it to seconds.
            "hgb": lambda: HistGradientBoostingClassifier(max_iter=100 if n_classes <= 2 else max(30, 200 // n_classes),
                                                          random_state=0),
            "linear": lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)),
        }
    return {
        "hgb": lambda: HistGradientBoostingRegressor(max_iter=100, random_state=0),
        "linear": lambda: make_pipeline(StandardScaler(), Ridge(alpha=1.0)),
    }


def feature_sets(train, fit_m, public, o, cfg):
    """(name, X_fit, X_val, kind) for each feature view the task has: tabular, text, image."""
    file_col = (cfg or {}).get("fileColumn")
    exclude = {o["id_column"], o["train_target"]}
    num, cat, text, dates = column_roles(train, exclude, file_col)
    fit, val = train[fit_m], train[~fit_m]
    out = []
    xf, xv = tabular_matrix(fit, val, num, cat, dates)
    if xf is not None:
        out.append(("tabular", xf, xv))
    if text:
        from sklearn.feature_extraction.text import TfidfVectorizer
        join = lambda d: d[text].fillna("").astype(str).agg(" ".join, axis=1)
        vec = TfidfVectorizer(ngram_range=(1, 2), min_df=2, max_features=50000, sublinear_tf=True)
        out.append(("tfidf", vec.fit_transform(join(fit)), vec.transform(join(val))))
    if file_col and file_col in train.columns:
        paths = train[file_col].astype(str)
        if paths.str.lower().str.endswith(IMAGE_EXT).mean() > 0.9:
            px = pixels(public, paths.values)
            out.append(("pixels", px[fit_m], px[~fit_m]))
    return out


def shaped(output, pred, val_ids, o, classes, k):
    """A submission frame for `output` from labels / probabilities / values."""
    sub = pd.DataFrame({o["id_column"]: val_ids})
    cols = o["target_columns"]
    if output == "proba_multi":
        for j, c in enumerate(cols):
            sub[c] = pred[:, j]
    elif output == "ranking":
        top = np.argsort(-pred, axis=1, kind="mergesort")[:, :k]
        sub[cols[0]] = [" ".join(str(classes[i]) for i in row) for row in top]
    else:
        sub[cols[0]] = pred
    return sub


def answers_of(output, val, o):
    ans = pd.DataFrame({o["id_column"]: val[o["id_column"]].values})
    y = val[o["train_target"]]
    if output == "proba_multi":
        for c in o["target_columns"]:
            ans[c] = (y.astype(str) == str(c)).astype(int).values
    else:
        ans[o["target_columns"][0]] = y.values
    return ans


def main(public, utils, o):
    t0 = time.time()
    cfg_path = os.path.join(utils, "prepare_config.json")
    cfg = json.load(open(cfg_path)) if os.path.isfile(cfg_path) else None
    metric_name = (cfg or {}).get("metric") or o.get("metric") or ""
    output = (cfg or {}).get("output") or o.get("output") or "value"
    k = int((cfg or {}).get("k") or 3)
    train = pd.read_csv(os.path.join(public, "train.csv"))
    target = o["train_target"]
    train = train[train[target].notna()].reset_index(drop=True)
    classification = output != "value"
    fit_m = ~split_rows(train, cfg, target, classification, float(o.get("validation_share", 0.25)))
    fit, val = train[fit_m], train[~fit_m]
    y_fit = fit[target]
    # prepare.py names proba_multi columns by str(label); label outputs compare as metric.py's _norm does.
    lab = (lambda v: v.astype(str)) if output == "proba_multi" else labels
    # What each output needs: classes in the submission's column order (strings, as the answers hold them).
    if output == "proba_multi":
        classes = [str(c) for c in o["target_columns"]]
    elif output == "proba_binary":
        classes = ["0", "1"]
    else:
        classes = sorted(lab(y_fit).unique())
    metric_cls = mh.load_class(os.path.join(utils, "metric.py"))
    opts = {"value": o["target_columns"][0] if len(o["target_columns"]) == 1 else target,
            "higher_is_better": o.get("higher_is_better"), "id_column": o["id_column"]}
    ans = answers_of(output, val, o)

    def score(pred):
        sub = shaped(output, pred, val[o["id_column"]].values, o, classes, k)
        r = mh.score(mh.instantiate(metric_cls, opts), ans, sub)
        if not r["ok"]:
            raise ValueError(f"metric.py refused a {output} prediction: {r['message']}")
        return r["score"]

    def from_proba(proba, model_classes):
        """Per-class probabilities (columns `classes`) -> the prediction `output` needs."""
        full = np.zeros((proba.shape[0], len(classes)))
        pos = {c: i for i, c in enumerate(classes)}
        for j, c in enumerate(model_classes):
            if str(c) in pos:
                full[:, pos[str(c)]] = proba[:, j]
        if output == "label":
            return np.array([classes[i] for i in full.argmax(axis=1)], dtype=object)
        if output == "proba_binary":
            return full[:, 1]
        return full

    # 2. the constant baseline
    n_val = len(val)
    if classification:
        prior = lab(y_fit).value_counts(normalize=True)
        p = np.array([[prior.get(c, 0.0) for c in classes]] * n_val)
        constant = score(from_proba(p, classes))
    else:
        yv = y_fit.astype(float)
        c = yv.median() if metric_name in ("mae", "rmsle") else yv.mean()
        constant = score(np.full(n_val, c))

    # 3. reference models on each feature view
    scores = {}
    label = lab(y_fit) if classification else y_fit.astype(float)
    if classification and label.nunique() < 2:
        raise ValueError("the fit rows hold one class only")
    for view, xf, xv in feature_sets(train, fit_m, public, o, cfg):
        sparse = view == "tfidf"
        for name, make in models(classification, len(classes)).items():
            # Boosting on TF-IDF or 256 pixels x many classes is far past the few-seconds budget.
            if name == "hgb" and view in ("tfidf", "pixels"):
                continue
            model = make()
            if sparse:
                from sklearn.linear_model import LogisticRegression, Ridge
                model = LogisticRegression(max_iter=1000, C=10.0) if classification else Ridge(alpha=1.0)
            try:
                model.fit(xf, label)
                if classification:
                    pred = from_proba(model.predict_proba(xv), list(model.classes_))
                else:
                    pred = model.predict(xv)
                scores[f"{view}-{name}"] = score(pred)
            except ValueError as e:
                scores[f"{view}-{name}"] = None
                sys.stderr.write(f"{view}-{name}: {e}\n")
    tried = {m: s for m, s in scores.items() if s is not None and math.isfinite(s)}
    if not tried:
        raise ValueError(f"no reference model could be fitted on the features ({sorted(scores) or 'none'})")
    hib = o.get("higher_is_better")
    hib = True if hib is None else bool(hib)
    best = max(tried, key=lambda m: tried[m] if hib else -tried[m])
    return {"ok": True, "constant": constant, "reference": tried[best], "reference_model": best, "scores": scores,
            "n_fit": int(fit_m.sum()), "n_validation": int(n_val), "seconds": round(time.time() - t0, 3)}


if __name__ == "__main__":
    try:
        result = main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))
    except mh.LoadError as e:
        result = {"ok": False, "message": str(e)}
    except Exception as e:
        result = {"ok": False, "message": f"{type(e).__name__}: {e}"}
    sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(result) + "\n")
