"""The persistent scorer's server (kit/sandbox/persistent-scorer.ts): `metric_harness.py serve` runs serve()
here as PID 1 of the scorer's own sandbox. `h` is the metric_harness module (load_class, read_csv,
score_file, LoadError), passed in so both files share one definition of a score.
"""
import importlib
import importlib.util
import json
import os
import sys
import time
import traceback


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


def _write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


def _read_all(fd):
    """Everything in a memfd written by a forked child, from the start; the descriptor is closed."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        b = os.read(fd, 1 << 20)
        if not b:
            break
        chunks.append(b)
    os.close(fd)
    return b"".join(chunks)


def _warm(h, cls, answers_path, opts, answers):
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
                h.score_file(cls, answers_path, answers_path, opts, answers)
            except BaseException:
                pass
            names = sorted(k for k in set(sys.modules) - before if sys.modules.get(k) is not None and k != "openmle_task_metric")
            _write_all(out, json.dumps(names).encode())
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    try:
        names = json.loads(_read_all(out) or b"[]")
    except ValueError:
        names = []
    for name in names:
        try:
            importlib.import_module(name)
        except BaseException:
            pass


def serve(h, metric_path, answers_path, submission_path, opts, scratch):
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
        _write_all(proto, ("OPENMLE_RESULT " + json.dumps(obj, default=str) + "\n").encode())

    try:
        cls = h.load_class(metric_path)
    except h.LoadError as e:
        return send({"ok": False, "kind": "load", "message": str(e)})
    try:
        answers = h.read_csv(answers_path, "answers")
    except Exception:
        answers = None  # reported by every score, as the score command does
    keep = {(d, name) for d in scratch for name in os.listdir(d)}
    _preimport(metric_path)
    _warm(h, cls, answers_path, opts, answers)
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
                    reply = h.score_file(cls, answers_path, submission_path, opts, answers)
                except Exception as e:
                    reply = {"ok": False, "kind": "error", "message": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()[-2000:]}
                _write_all(out, json.dumps(reply, default=str).encode())
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        body = _read_all(out)
        reply = None
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
            try:
                reply = json.loads(body)
            except ValueError:
                reply = None
        if not isinstance(reply, dict):
            how = f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.waitstatus_to_exitcode(status)}"
            reply = {"ok": False, "kind": "crash", "message": f"the metric's process ended without a result ({how})"}
        reply["dirty"] = not (_kill_strays() & _clean(scratch, keep))
        send(reply)
