"""Warm start (issue 28): a fork server inside a bubblewrap sandbox of its own.

The host (kit/sandbox/zygote.ts) starts this as uid 1000 of a user namespace in which it holds every
capability, with the task's public data at /data, the jobs root at /.jobs and this folder at /.zygote.
It imports the preload modules once, then forks one child per program (protocol: one JSON line per
command on stdin; binary frames on stdout, see `frame`). A child C, once the host has put it in the
job's cgroup and said "go":
  1. unshares mount, pid, net, ipc, uts and cgroup namespaces; mounts the job folder at /workspace,
     hides /.jobs and /.zygote under empty read-only tmpfs, mounts a fresh /tmp and /dev; brings up its own loopback;
  2. forks G, PID 1 of the new pid namespace (everything G starts dies with it), and exits with G's
     status (128 + signal when G was killed, as bubblewrap reports it);
G mounts its own /proc read-only, sets the rlimits, drops every capability (bounding and ambient sets
too), sets no_new_privs and a seccomp filter that refuses namespace and mount calls, and only then runs
code/main.py as __main__. Nothing a program does reaches this process: it is not dumpable, lives in a
pid namespace the program cannot see, and its memory is copy-on-write in the child.
The namespace, mount and privilege calls are in zygote_child.py.
"""

import json
import os
import platform
import select
import signal
import struct
import sys

from zygote_child import ARCHES, LIBC, PR_SET_DUMPABLE, PR_SET_PDEATHSIG, become_program, setup_child


def frame(kind, job, payload=b""):
    """One frame to the host: kind (1 byte), job id (u32), length (u32), payload. Header and payload go out in
    one writev, so a payload that is a view of RELAY (a job's output) is never copied into a Python object."""
    parts = [struct.pack("<cII", kind.encode(), job, len(payload)), memoryview(payload)]
    while parts:
        n = os.writev(1, parts)
        while parts and n >= len(parts[0]):
            n -= len(parts[0])
            parts.pop(0)
        if parts:
            parts[0] = parts[0][n:]


# Job output passes through this one buffer, never through a bytes object (issue 59): os.readv fills it in place,
# frame() writes a view of it, and relay() zeroes what it held before the loop goes on. Every child forks from a
# zygote whose heap holds no byte of any job's output, so a program scanning its memory finds none, sequentially
# or concurrently (pymalloc and malloc keep freed bytes; only a buffer that is overwritten is safe).
RELAY = bytearray(65536)
RELAY_VIEW = memoryview(RELAY)
ZEROS = memoryview(bytes(len(RELAY)))


def relay(fd, kind, job):
    """Pass one read of a job's stream to the host; returns the bytes read (0 at its end)."""
    n = os.readv(fd, [RELAY])
    if n:
        try:
            frame(kind, job, RELAY_VIEW[:n])
        finally:
            RELAY_VIEW[:n] = ZEROS[:n]
    return n


class RunProgram(BaseException):
    """Raised in G to unwind out of the server loop, so the program runs from the module's top level."""

    def __init__(self, spec):
        super().__init__()
        self.spec = spec


def child(spec, go_fd, out_w, err_w, setup_w, arch):
    """C: wait for the host's go, set up, fork G, relay its status as an exit code. A failure before the program's
    first line is written to fd 3, the job's setup pipe, which G closes before the program runs: a program can print
    anything, but cannot make its own failure read as the sandbox's (issue 59)."""
    LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    os.setsid()
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    os.dup2(setup_w, 3)
    os.dup2(os.open("/dev/null", os.O_RDONLY), 0)
    go = os.read(go_fd, 1)
    os.closerange(4, 1 << 16)
    if go != b"g":
        os._exit(125)
    try:
        setup_child(spec)
    except BaseException as e:  # noqa: BLE001 - reported as the sandbox's own failure
        os.write(3, f"warm start failed: {e}".encode())
        os._exit(1)
    pid = os.fork()
    if pid == 0:
        LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        try:
            become_program(spec, arch)
        except BaseException as e:  # noqa: BLE001
            os.write(3, f"warm start failed: {e}".encode())
            os._exit(1)
        os.close(3)
        raise RunProgram(spec)
    os.close(3)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)


def preload(modules):
    """Import what programs commonly need; a module that fails to import is reported, never fatal."""
    failed = []
    for name in modules:
        try:
            __import__(name)
        except Exception as e:  # noqa: BLE001
            failed.append(f"{name}: {type(e).__name__}: {e}")
    return failed


def serve(arch):
    """The server loop: run commands from the host, relay each child's output and exit status."""
    jobs = {}  # job id -> {pid, go, fds: {fd: kind}}
    by_fd = {}
    by_pid = {}
    rfd, wfd = os.pipe()
    os.set_blocking(wfd, False)
    signal.set_wakeup_fd(wfd)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    pending = b""
    while True:
        readable, _, _ = select.select([0, rfd, *by_fd], [], [])
        if rfd in readable:
            try:
                os.read(rfd, 4096)
            except BlockingIOError:
                pass
        for fd in [f for f in readable if f in by_fd]:
            pump(fd, jobs, by_fd, drain=False)
        reap(jobs, by_pid)
        # Once C is reaped, every process of its job is gone (G was PID 1 of their namespace), so nothing can write
        # any more: what is in the pipes is all there is. Drain it and end the streams even if a write end is still
        # "open" only because the program left it in flight on a socket of its own (issue 59 review).
        for fd in [f for f, (j, _) in by_fd.items() if jobs[j]["status"] is not None]:
            pump(fd, jobs, by_fd, drain=True)
        for job in [j for j, s in jobs.items() if s["open"] == 0 and s["status"] is not None]:
            done = jobs.pop(job)
            frame("x", job, json.dumps({"code": done["status"], "setup": setup_failure(done["setup"])}).encode())
        if 0 in readable:
            data = os.read(0, 65536)
            if not data:
                return
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                msg = json.loads(line)
                if msg["op"] == "run":
                    start(msg, jobs, by_fd, by_pid, arch)
                elif msg["op"] == "go" and msg["id"] in jobs and jobs[msg["id"]]["go"] is not None:
                    go = jobs[msg["id"]]["go"]
                    jobs[msg["id"]]["go"] = None
                    os.write(go, b"g")
                    os.close(go)
                elif msg["op"] == "kill" and msg["id"] in jobs and jobs[msg["id"]]["status"] is None:
                    # (only while unreaped: a reaped child's pid may already be another job's)
                    try:
                        os.kill(jobs[msg["id"]]["pid"], signal.SIGKILL)
                    except ProcessLookupError:
                        pass


def pump(fd, jobs, by_fd, drain):
    """Relay what a job's stream holds: one read, or (drain) all of it. Its end, or a drained stream, closes it."""
    job, kind = by_fd[fd]
    try:
        while relay(fd, kind, job):
            if not drain:
                return
    except BlockingIOError:
        if not drain:
            return
    job, kind = by_fd.pop(fd)
    os.close(fd)
    frame(kind, job)  # the end of that stream: an empty frame
    jobs[job]["open"] -= 1


def start(msg, jobs, by_fd, by_pid, arch):
    job = msg["id"]
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    go_r, go_w = os.pipe()
    setup_r, setup_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        child(msg, go_r, out_w, err_w, setup_w, arch)
    for fd in (out_w, err_w, go_r, setup_w):
        os.close(fd)
    for fd in (out_r, err_r, setup_r):
        os.set_blocking(fd, False)
    jobs[job] = {"pid": pid, "go": go_w, "setup": setup_r, "open": 2, "status": None}
    by_fd[out_r] = (job, "1")
    by_fd[err_r] = (job, "2")
    by_pid[pid] = job
    frame("s", job, json.dumps({"pid": pid}).encode())


def reap(jobs, by_pid):
    """Collect every finished child (and any orphan reparented here); note the status of our own."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        job = by_pid.pop(pid, None)
        if job is not None and job in jobs:
            if jobs[job]["go"] is not None:  # killed before its go: the pipe's end would stay open here
                os.close(jobs[job]["go"])
                jobs[job]["go"] = None
            if os.WIFSIGNALED(status):
                jobs[job]["status"] = {"signal": os.WTERMSIG(status)}
            else:
                jobs[job]["status"] = {"exit": os.waitstatus_to_exitcode(status)}


def setup_failure(fd):
    """What C or G wrote on the job's setup pipe (all its writers are gone once its streams closed), or None."""
    try:
        text = os.read(fd, 4096).decode(errors="replace")
    except BlockingIOError:
        text = ""
    os.close(fd)
    return text or None


def run_program(spec):
    """G, at the module's top level: run code/main.py as `python3 code/main.py` would, and end as it would."""
    import types

    path = "/workspace/code/main.py"
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = __builtins__
    main.__cached__ = None
    sys.modules["__main__"] = main
    sys.argv[:] = spec.get("argv") or ["code/main.py"]
    sys.path[0] = "/workspace/code"
    sys.excepthook = strip_own_frames
    with open(path, "rb") as f:
        source = f.read()
    code = compile(source, path, "exec", dont_inherit=True)
    del spec, source, f
    status = 0
    try:
        exec(code, main.__dict__)
    except SystemExit as e:
        status = exit_status(e)
    except BaseException as e:  # noqa: BLE001 - printed as the interpreter prints it
        sys.excepthook(type(e), e, e.__traceback__)
        status = 1
    finish(status)


def exit_status(e):
    """SystemExit's code as the interpreter reads it: None is 0, an int itself, anything else printed and 1."""
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code & 0xFF
    print(e.code, file=sys.stderr)
    return 1


def finish(status):
    """The parts of interpreter shutdown a program can observe: non-daemon threads joined, atexit handlers
    (also weakref.finalize and multiprocessing's), every file object the program left open flushed (gc.freeze
    in the zygote means only the program's own objects are seen). Then _exit: tearing down the zygote's heap
    would copy every page of it (~1.5 s) for nothing the program can see."""
    import atexit
    import gc
    import io
    import threading

    try:
        threading._shutdown()
    except BaseException:  # noqa: BLE001
        pass
    try:
        atexit._run_exitfuncs()
    except SystemExit as e:
        status = exit_status(e)
    for obj in gc.get_objects():
        if isinstance(obj, io.IOBase):
            try:
                if not obj.closed:
                    obj.flush()
            except BaseException:  # noqa: BLE001
                pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass
    os._exit(status)


def strip_own_frames(kind, value, tb):
    """Uncaught exceptions print as from the program itself, without this file's frames."""
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    if isinstance(value, BaseException):
        value = value.with_traceback(tb)  # (the default hook prints value.__traceback__, not tb)
    sys.__excepthook__(kind, value, tb)


def main():
    arch = platform.machine()
    if arch not in ARCHES:
        frame("f", 0, f"warm start is not available on {arch}".encode())
        return
    LIBC.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    failed = preload([m for m in sys.argv[1:] if m])
    sys.path[0] = "/workspace/code"
    import gc

    gc.collect()
    gc.freeze()  # the zygote's objects: never scanned, so never written (copied) by a child's collections
    frame("r", 0, json.dumps({"failed": failed}).encode())
    serve(arch)


if __name__ == "__main__":
    _spec = None
    try:
        main()
    except RunProgram as r:
        _spec = r.spec
    # Outside the handler, so the program's own exceptions carry no context from this one.
    if _spec is not None:
        run_program(_spec)
