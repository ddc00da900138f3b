"""OpenMLE gym metric probe: which well-known metric does a package's metric class compute?

  metric_probe.py <metric.py> <sample_submission.csv> <options json>
options: {"id_column": name, "value": target column or null, "targets": [prediction columns],
          "target_numeric": bool, "target_unique": int, "classes": [labels] or null}

For classes whose name and docstring do not say (e.g. `class Metric`, "Scores a submission"): the
class is called on small made-up answers and two made-up submissions of the task's output shape
(values, labels, one probability column, a probability column per class), and its scores are
compared with each candidate metric computed here; a candidate matches when it agrees on both
submissions (relative tolerance 1e-6). Prints `OPENMLE_RESULT {"ok", "output", "matches", "scores"}`.
"""
import json
import sys

import numpy as np
import pandas as pd

from metric_harness import LoadError, evaluate, instantiate, load_class, validate

N = 12
TRUE_VALUES = np.array([3.0, 10.0, 25.0, 1.5, 60.0, 8.0, 120.0, 40.0, 5.0, 16.0, 2.0, 75.0])
FACTORS = [np.array([1.3, 0.7, 1.1, 2.0, 0.9, 1.5, 0.8, 1.2, 0.6, 1.05, 3.0, 0.95]),
           np.array([0.5, 1.4, 1.0, 1.1, 1.6, 0.9, 1.25, 0.75, 2.5, 1.0, 0.8, 1.3])]


def _labels_metrics(t, p, k):
    from sklearn import metrics as m
    out = {
        "accuracy": m.accuracy_score(t, p),
        "balancedaccuracy": m.balanced_accuracy_score(t, p),
        "macrof1": m.f1_score(t, p, average="macro"),
        "weightedf1": m.f1_score(t, p, average="weighted"),
        "mcc": m.matthews_corrcoef(t, p),
        "qwk": m.cohen_kappa_score(t, p, weights="quadratic"),
    }
    if k == 2:
        out["f1"] = m.f1_score(t, p, pos_label=1)
    return out


def candidates(output, t, p, k):
    """Candidate metric values for answers t and predictions p (codes 0..k-1 / values / probabilities)."""
    if output == "regression":
        e = p - t
        lg = np.log1p(np.clip(p, 0, None)) - np.log1p(t)
        return {
            "rmse": np.sqrt(np.mean(e ** 2)), "mse": np.mean(e ** 2), "mae": np.mean(np.abs(e)), "medae": np.median(np.abs(e)),
            "rmsle": np.sqrt(np.mean(lg ** 2)), "msle": np.mean(lg ** 2), "r2": 1.0 - np.sum(e ** 2) / np.sum((t - t.mean()) ** 2),
            "mape": np.mean(np.abs(e) / np.abs(t)), "smape": np.mean(2 * np.abs(e) / (np.abs(p) + np.abs(t))),
        }
    from sklearn import metrics as m
    if output == "labels":
        return _labels_metrics(t, p, k)
    if output == "proba_binary":
        return {"rocauc": m.roc_auc_score(t, p), "logloss": m.log_loss(t, p, labels=[0, 1])}
    return {"rocauc": m.roc_auc_score(t, p, multi_class="ovr", labels=list(range(k))), "logloss": m.log_loss(t, p, labels=list(range(k)))}


def output_kind(sample, o):
    targets = o["targets"]
    if len(targets) > 1:
        return "proba_multi"
    col = sample[targets[0]]
    classes = o.get("classes") or []
    numeric = pd.api.types.is_numeric_dtype(col)
    if o.get("target_numeric") and (o.get("target_unique") or 0) > 20:
        return "regression"
    if numeric and len(classes) == 2 and col.between(0, 1).all() and not col.isin([0, 1]).all():
        return "proba_binary"
    if classes:
        return "labels"
    return "regression" if numeric else "labels"


def probe(metric, sample, o):
    id_col, targets = o["id_column"], o["targets"]
    ids = sample[id_col].values[:N]
    n = len(ids)
    if n < 6:
        raise ValueError(f"sample submission has {n} rows; the probe needs at least 6")
    output = output_kind(sample, o)
    rng = np.random.RandomState(0)
    classes = list(o.get("classes") or [])
    if output == "proba_multi":
        classes = list(targets)
    k = len(classes)
    # Skewed answers (half of the rows in the first class), so that the label metrics differ.
    codes = np.array([0] * (n // 2) + [i % max(k, 1) for i in range(n - n // 2)])
    cases = []
    for j in range(2):
        if output == "regression":
            t = TRUE_VALUES[:n]
            cases.append((t, t * FACTORS[j][:n]))
        elif output == "labels":
            p = codes.copy()
            flip = rng.choice(n, size=n // 3 + j, replace=False)
            p[flip] = (p[flip] + 1 + j) % k
            cases.append((codes, p))
        elif output == "proba_binary":
            t = np.array([i % 2 for i in range(n)])
            p = np.clip(np.where(t == 1, 0.7, 0.3) + rng.uniform(-0.45, 0.45, n), 0.02, 0.98)
            cases.append((t, p))
        else:
            P = rng.dirichlet(np.ones(k), n)
            P[np.arange(n), codes] += 0.5 + j
            cases.append((codes, P / P.sum(axis=1, keepdims=True)))
    scores, cands = [], []
    for t, p in cases:
        ans, sub = pd.DataFrame({id_col: ids}), pd.DataFrame({id_col: ids})
        if output == "proba_multi":
            for c, name in enumerate(targets):
                ans[name] = (t == c).astype(int)
                sub[name] = p[:, c]
        elif output == "labels":
            ans[targets[0]] = [classes[i] for i in t]
            sub[targets[0]] = [classes[i] for i in p]
        else:
            ans[targets[0]], sub[targets[0]] = t, p
        problem = validate(metric, sub, ans)
        if problem is not None:
            raise ValueError(f"the metric rejected the probe submission: {problem}")
        scores.append(evaluate(metric, ans, sub))
        cands.append({name: float(v) for name, v in candidates(output, t, p, k).items()})
    matches = [name for name in cands[0] if all(abs(s - c[name]) <= 1e-6 * max(1.0, abs(c[name])) for s, c in zip(scores, cands))]
    return {"ok": True, "output": output, "matches": matches, "scores": scores}


def main(argv):
    try:
        o = json.loads(argv[3])
        metric = instantiate(load_class(argv[1]), o)
        return probe(metric, pd.read_csv(argv[2]), o)
    except LoadError as e:
        return {"ok": False, "kind": "load", "message": str(e)}
    except Exception as e:
        return {"ok": False, "kind": "error", "message": f"{type(e).__name__}: {e}"}


if __name__ == "__main__":
    sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(main(sys.argv), default=str) + "\n")
