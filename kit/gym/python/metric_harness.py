"""OpenMLE gym metric harness: loads a package's utils/metric.py and calls it.

The metric class is found by its methods (evaluate + validate_submission), never by name, so
packages published with the paper run unmodified. Every command prints one JSON object on stdout.

  metric_harness.py inspect <metric.py>
  metric_harness.py score   <metric.py> <answers.csv> <submission.csv> <options json>
  metric_harness.py verify  <metric.py> <answers.csv> <sample.csv> <options json>
  metric_harness.py score-many <cases.json>   (a list of {metric, answers, submission, options})
  metric_harness.py serve   <metric.py> <answers.csv> <submission path> <options json> <scratch dir>...
                            (the persistent scorer: see scorer_serve.py)

options: {"value": <target column or null>, "higher_is_better": <bool or null>, "id_column": <name>}
"""
import importlib.util
import inspect
import json
import math
import os
import sys
import time
import traceback

import numpy as np
import pandas as pd


class LoadError(Exception):
    pass


def load_class(path):
    try:
        spec = importlib.util.spec_from_file_location("openmle_task_metric", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except FileNotFoundError:
        raise LoadError(f"{path} does not exist. Fix: the package needs utils/metric.py with one metric class.")
    except Exception as e:  # syntax errors, failing imports
        raise LoadError(f"{path} cannot be imported: {type(e).__name__}: {e}. Fix: make the file importable with /usr/bin/python3.")
    found = []
    for name, obj in vars(module).items():
        if inspect.isclass(obj) and callable(getattr(obj, "evaluate", None)) and callable(getattr(obj, "validate_submission", None)):
            own = getattr(obj, "__module__", "") == module.__name__
            found.append((0 if own else 1, name, obj))
    if not found:
        raise LoadError(f"{path} has no class with evaluate() and validate_submission() methods. "
                        "Fix: define one class with __init__(value, higher_is_better), evaluate(y_true, y_pred) and validate_submission(submission, ground_truth).")
    found.sort(key=lambda t: t[0])
    return found[0][2]


def describe(cls):
    params = {}
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        params[p.name] = None if p.default is p.empty else p.default
    required = [p.name for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
                if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    return {"class_name": cls.__name__, "init_defaults": params, "required": required, "doc": inspect.getdoc(cls) or ""}


def instantiate(cls, opts):
    info = describe(cls)
    kwargs = {}
    for name in info["init_defaults"]:
        if name == "value" and opts.get("value") is not None and (name in info["required"] or opts.get("force_value")):
            kwargs[name] = opts["value"]
        elif name == "higher_is_better" and name in info["required"] and opts.get("higher_is_better") is not None:
            kwargs[name] = bool(opts["higher_is_better"])
    return cls(**kwargs)


def validate(metric, sub, ans):
    """None when valid, else the message. Accepts raising, returning False or (False, msg)."""
    try:
        out = metric.validate_submission(sub, ans)
    except Exception as e:
        return str(e) or type(e).__name__
    if out is False:
        return "validate_submission returned False"
    if isinstance(out, tuple) and len(out) >= 1 and out[0] is False:
        return str(out[1]) if len(out) > 1 else "validate_submission returned False"
    return None


def evaluate(metric, ans, sub):
    value = metric.evaluate(ans, sub)
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"evaluate returned {value}")
    return value


def score(metric, ans, sub):
    problem = validate(metric, sub, ans)
    if problem is not None:
        return {"ok": False, "kind": "invalid", "message": problem}
    try:
        return {"ok": True, "score": evaluate(metric, ans, sub)}
    except Exception as e:
        return {"ok": False, "kind": "error", "message": f"{type(e).__name__}: {e}"}


def score_file(cls, answers_path, submission_path, opts, ans=None):
    """The `score` command after loading the class: a fresh metric instance, the answers (read from
    `answers_path` unless given already read), the submission."""
    metric = instantiate(cls, opts)
    if ans is None:
        ans = read_csv(answers_path, "answers")
    try:
        sub = pd.read_csv(submission_path)
    except Exception as e:
        return {"ok": False, "kind": "invalid", "message": f"submission cannot be read as CSV: {e}"}
    return score(metric, ans, sub)


def read_csv(path, what):
    try:
        return pd.read_csv(path)
    except Exception as e:
        raise ValueError(f"{what} {path} cannot be read as CSV: {e}")


def verify(metric, ans, sample, opts):
    """Metric verification: self-score, sample validity, shuffled worse, malformed rejected."""
    id_col = opts.get("id_column") or ans.columns[0]
    targets = [c for c in ans.columns if c != id_col]
    hib = opts.get("higher_is_better")
    hib = True if hib is None else bool(hib)
    out = {"self": score(metric, ans, ans.copy()), "sample": score(metric, ans, sample)}
    rng = np.random.RandomState(0)
    shuffled = ans.copy()
    perm = rng.permutation(len(ans))
    for c in targets:
        shuffled[c] = ans[c].values[perm]
    out["shuffled"] = score(metric, ans, shuffled)
    cases = {}
    if targets:
        cases["missing_column"] = ans.drop(columns=[targets[0]])
        nan = ans.copy()
        nan[targets[0]] = nan[targets[0]].astype(object)
        nan.iloc[0, nan.columns.get_loc(targets[0])] = np.nan
        cases["nan_value"] = nan
    cases["wrong_row_count"] = ans.iloc[:-1].copy()
    unknown = ans.copy()
    unknown[id_col] = unknown[id_col].astype(object)
    unknown.iloc[0, unknown.columns.get_loc(id_col)] = "__openmle_unknown_id__"
    cases["unknown_id"] = unknown
    out["malformed"] = {name: validate(metric, df, ans) for name, df in cases.items()}
    out["higher_is_better"] = hib
    return out


def score_many(cases_file):
    """Score many (metric.py, answers, submission, options) cases in one process."""
    with open(cases_file) as f:
        cases = json.load(f)
    classes, results = {}, []
    for c in cases:
        try:
            if c["metric"] not in classes:
                classes[c["metric"]] = load_class(c["metric"])
            metric = instantiate(classes[c["metric"]], c.get("options") or {})
            try:
                sub = pd.read_csv(c["submission"])
            except Exception as e:
                results.append({"ok": False, "kind": "invalid", "message": f"submission cannot be read as CSV: {e}"})
                continue
            results.append(score(metric, read_csv(c["answers"], "answers"), sub))
        except LoadError as e:
            results.append({"ok": False, "kind": "load", "message": str(e)})
        except Exception as e:
            results.append({"ok": False, "kind": "error", "message": f"{type(e).__name__}: {e}"})
    return {"ok": True, "results": results}


def main(argv):
    cmd = argv[1]
    if cmd == "score-many":
        return score_many(argv[2])
    if cmd == "serve":
        import scorer_serve  # copied beside this file into the scorer's sandbox
        return scorer_serve.serve(sys.modules[__name__], argv[2], argv[3], argv[4], json.loads(argv[5]), argv[6:])
    try:
        cls = load_class(argv[2])
        if cmd == "inspect":
            return {"ok": True, **describe(cls)}
        opts = json.loads(argv[5]) if len(argv) > 5 else {}
        if cmd == "score":
            return score_file(cls, argv[3], argv[4], opts)
        metric = instantiate(cls, opts)
        ans = read_csv(argv[3], "answers")
        if cmd == "verify":
            return {"ok": True, **verify(metric, ans, read_csv(argv[4], "sample submission"), opts)}
        return {"ok": False, "kind": "usage", "message": f"unknown command {cmd}"}
    except LoadError as e:
        return {"ok": False, "kind": "load", "message": str(e)}
    except Exception as e:
        return {"ok": False, "kind": "error", "message": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-2000:]}


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        r = main(sys.argv)
        if r is not None:
            sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(r) + "\n")
    else:
        sys.stdout.write("\nOPENMLE_RESULT " + json.dumps(main(sys.argv), default=str) + "\n")
