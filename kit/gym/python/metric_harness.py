"""OpenMLE gym metric harness: loads a package's utils/metric.py and calls it.

The metric class is found by its methods (evaluate + validate_submission), never by name, so
packages published with the paper run unmodified. Every command prints one JSON object on stdout.

  metric_harness.py inspect <metric.py>
  metric_harness.py score   <metric.py> <answers.csv> <submission.csv> <options json>
  metric_harness.py verify  <metric.py> <answers.csv> <sample.csv> <options json>
  metric_harness.py score-many <cases.json>   (a list of {metric, answers, submission, options})
  metric_harness.py serve   <metric.py> <answers.csv> <submission path> <options json> <scratch dir>...
                            (the persistent scorer: see serve())

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


def _clean(scratch, keep):
    """Remove whatever a score left in the scratch folders (all but the entries present at start)."""
    import shutil
    import stat

    def retry(fn, path, _exc):
        os.chmod(os.path.dirname(path), stat.S_IRWXU)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, stat.S_IRWXU)
        fn(path)

    clean = True
    for d in scratch:
        for name in os.listdir(d):
            if (d, name) in keep:
                continue
            p = os.path.join(d, name)
            try:
                if os.path.isdir(p) and not os.path.islink(p):
                    shutil.rmtree(p, onerror=retry)
                else:
                    os.unlink(p)
            except OSError:
                clean = False
    return clean


def _kill_strays():
    """SIGKILL every other process of the sandbox's PID namespace (this one is PID 1) and reap them."""
    import signal
    if os.getpid() != 1:
        return False
    for _ in range(50):
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()]
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if not pids:
            return True
        time.sleep(0.005)
    return False


def _preimport(metric_path):
    """Import the absolute imports written anywhere in metric.py (also inside functions, e.g. sklearn in
    evaluate): library modules only, no metric code runs. Done before _warm, so its fork starts with them."""
    import ast
    import importlib
    try:
        with open(metric_path, "rb") as f:
            tree = ast.parse(f.read())
    except Exception:
        return
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names if a.name != "*"]
    for name in names:
        if name in sys.modules:
            continue
        try:
            importlib.util.find_spec(name)  # a submodule, or an attribute of its parent (then skipped)
            importlib.import_module(name)
        except BaseException:
            pass


def _warm(cls, answers_path, opts, answers):
    """Import here the modules a score imports lazily (e.g. sklearn inside evaluate), so no fork pays for
    them. They are found by scoring the answers against themselves in a child; the metric's code never
    runs in this process, so the state every score starts from holds no result of running it."""
    import importlib
    out = os.memfd_create("openmle-warm")
    pid = os.fork()
    if pid == 0:
        try:
            before = set(sys.modules)
            try:
                score_file(cls, answers_path, answers_path, opts, answers)
            except BaseException:
                pass
            names = sorted(k for k in set(sys.modules) - before if sys.modules.get(k) is not None and k != "openmle_task_metric")
            body = json.dumps(names).encode()
            while body:
                body = body[os.write(out, body):]
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    os.lseek(out, 0, os.SEEK_SET)
    chunks = []
    while True:
        b = os.read(out, 1 << 20)
        if not b:
            break
        chunks.append(b)
    os.close(out)
    try:
        names = json.loads(b"".join(chunks) or b"[]")
    except ValueError:
        names = []
    for name in names:
        try:
            importlib.import_module(name)
        except BaseException:
            pass


def serve(metric_path, answers_path, submission_path, opts, scratch):
    """The persistent scorer (kit/sandbox/persistent-scorer.ts), PID 1 of its own sandbox.

    1. Load the metric class once (pandas, numpy and the metric's imports stay loaded), read the
       answers once (as the `score` command reads them), import the modules metric.py names
       (_preimport) and those a score imports lazily (_warm); reply "ready" or the load error.
    2. For each request on stdin (a line with a byte count, then the submission's bytes): fork; the
       child writes the submission to `submission_path` and runs exactly the `score` command
       (score_file: a fresh metric instance, its own copy-on-write copy of the answers, the
       submission), writing its reply to a memfd. So no state a score leaves in the interpreter
       (module globals, mutated answers, the random state) reaches the next score: each starts from
       the same loaded state.
    3. After the child: kill every other process left in the namespace, empty the scratch folders,
       reply on the protocol descriptor (the metric's own prints go to stderr). `dirty` tells the
       host to restart the sandbox when the clean-up failed.
    This process is not dumpable, so a child cannot ptrace it or open its /proc entries.
    """
    import ctypes
    import signal
    if os.getpid() != 1:
        # Step 3 kills every other process it can see: only safe as PID 1 of the sandbox's own PID namespace.
        return {"ok": False, "kind": "usage", "message": "serve runs only as PID 1 of its own PID namespace (the persistent scorer's sandbox)"}
    proto = os.dup(1)
    os.dup2(2, 1)
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # PID 1 ignores it then: a child cannot stop the server
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 0

    def send(obj):
        data = ("OPENMLE_RESULT " + json.dumps(obj, default=str) + "\n").encode()
        while data:
            data = data[os.write(proto, data):]

    try:
        cls = load_class(metric_path)
    except LoadError as e:
        return send({"ok": False, "kind": "load", "message": str(e)})
    try:
        answers = read_csv(answers_path, "answers")
    except Exception:
        answers = None  # reported by every score, as the score command does
    keep = {(d, name) for d in scratch for name in os.listdir(d)}
    _preimport(metric_path)
    _warm(cls, answers_path, opts, answers)
    _kill_strays()
    _clean(scratch, keep)
    send({"ok": True, "ready": True})
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            return None
        n = int(line)
        data = stdin.read(n)
        if data is None or len(data) != n:
            return None
        out = os.memfd_create("openmle-score-result")
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(proto)
                null = os.open("/dev/null", os.O_RDONLY)
                os.dup2(null, 0)
                os.close(null)
                signal.signal(signal.SIGINT, signal.default_int_handler)
                libc.prctl(4, 1, 0, 0, 0)
                with open(submission_path, "wb") as f:
                    f.write(data)
                try:
                    reply = score_file(cls, answers_path, submission_path, opts, answers)
                except Exception as e:
                    reply = {"ok": False, "kind": "error", "message": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-2000:]}
                body = json.dumps(reply, default=str).encode()
                while body:
                    body = body[os.write(out, body):]
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        os.lseek(out, 0, os.SEEK_SET)
        chunks = []
        while True:
            b = os.read(out, 1 << 20)
            if not b:
                break
            chunks.append(b)
        os.close(out)
        reply = None
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            try:
                reply = json.loads(b"".join(chunks))
            except ValueError:
                reply = None
        if not isinstance(reply, dict):
            how = f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.waitstatus_to_exitcode(status)}"
            reply = {"ok": False, "kind": "crash", "message": f"the metric's process ended without a result ({how})"}
        reply["dirty"] = not (_kill_strays() & _clean(scratch, keep))
        send(reply)


def main(argv):
    cmd = argv[1]
    if cmd == "score-many":
        return score_many(argv[2])
    if cmd == "serve":
        return serve(argv[2], argv[3], argv[4], json.loads(argv[5]), argv[6:])
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
