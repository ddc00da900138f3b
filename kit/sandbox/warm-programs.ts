// Adversarial programs against warm start (issue 28): what a program forked from a zygote might try against
// the zygote, the programs after it and its siblings. Shared by warm-security.test.ts and bench/security.
// Each prints one JSON line with what it observed.
export const WARM_ADVERSARIAL = {
  /** Look for another job's folder: the zygote's /.jobs, a walk of /, and other processes' roots. */
  readSibling: (siblingName: string, secretFile: string) => `
import json, os
found = []
for p in ["/.jobs", "/.jobs/${siblingName}", "/workspace/../.jobs/${siblingName}"]:
    try:
        found += [os.path.join(p, n) for n in os.listdir(p)]
    except OSError:
        pass
for root, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if not (root == "/" and d in ("proc", "sys", "usr", "dev"))]
    if ${JSON.stringify(secretFile)} in files and root != "/workspace":
        found.append(os.path.join(root, ${JSON.stringify(secretFile)}))
for pid in os.listdir("/proc"):
    if pid.isdigit() and int(pid) != os.getpid():
        try:
            found += os.listdir(f"/proc/{pid}/root/.jobs")
        except OSError:
            pass
print(json.dumps({"found": found}))
`,
  /** Signal and ptrace every process it can name; see whether any is not its own. */
  attackZygote: () => `
import ctypes, json, os, signal
libc = ctypes.CDLL(None, use_errno=True)
me = os.getpid()
visible = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
signalled, traced = [], []
for pid in range(1, 2000):
    if pid == me:
        continue
    try:
        os.kill(pid, signal.SIGKILL); signalled.append(pid)
    except OSError:
        pass
    if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH
        traced.append(pid)
try:
    os.kill(-1, signal.SIGKILL)
except OSError:
    pass
print(json.dumps({"pid": me, "visible": visible, "signalled": signalled, "traced": traced}))
`,
  /** Change what the next program would import: patch modules, poison sys.modules, drop files where imports look. */
  poisonModules: () => `
import json, os, sys, numpy, pandas
numpy.mean = lambda *a, **k: 42
sys.modules["pandas"] = None
import builtins
builtins.open_orig = builtins.open
wrote = []
for p in [numpy.__file__, os.path.join(os.path.dirname(numpy.__file__), "sitecustomize.py"), "/.zygote/zygote.py",
          "/.zygote/sitecustomize.py", "/workspace/../sitecustomize.py", "/tmp/sitecustomize.py", "/usr/lib/python3/dist-packages/sitecustomize.py"]:
    try:
        with open(p, "a") as f:
            f.write("\\nraise SystemExit('poisoned')\\n")
        wrote.append(p)
    except OSError:
        pass
print(json.dumps({"wrote": [w for w in wrote if w.startswith("/tmp") is False]}))
`,
  /** What the program after a poisoning sees. */
  checkModules: () => `
import json, sys, builtins
import numpy, pandas
print(json.dumps({"mean": float(numpy.mean([1.0, 2.0])), "pandas": pandas.__name__,
                  "open_orig": hasattr(builtins, "open_orig"), "tmp": __import__("os").listdir("/tmp")}))
`,
  /** Namespace and mount calls a program might use to undo its isolation. */
  namespaceCalls: () => `
import ctypes, json, os
libc = ctypes.CDLL(None, use_errno=True)
res = {}
for name, flag in [("user", 0x10000000), ("mount", 0x20000), ("net", 0x40000000), ("pid", 0x20000000)]:
    r = libc.unshare(flag)
    res["unshare_" + name] = "allowed" if r == 0 else os.strerror(ctypes.get_errno())
r = libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, None)
res["mount"] = "allowed" if r == 0 else os.strerror(ctypes.get_errno())
fd = os.open("/proc/self/ns/mnt", os.O_RDONLY)
r = libc.setns(fd, 0)
res["setns"] = "allowed" if r == 0 else os.strerror(ctypes.get_errno())
r = libc.syscall(435, None, 0)  # clone3
res["clone3"] = "allowed" if r >= 0 else os.strerror(ctypes.get_errno())
status = open("/proc/self/status").read()
res["caps"] = [l.split()[1] for l in status.splitlines() if l.startswith(("CapEff", "CapPrm", "CapBnd", "CapAmb"))]
res["no_new_privs"] = [l.split()[1] for l in status.splitlines() if l.startswith("NoNewPrivs")]
res["uid"] = os.getuid()
print(json.dumps(res))
`,
  /** Leave a thread, a child and a double-forked daemon running; each would write a marker later. */
  leaveWork: (token: string) => `
import os, threading, time
def later(name):
    time.sleep(1.5)
    open(name, "w").write("x")
threading.Thread(target=later, args=("alive-thread",), daemon=True).start()
if os.fork() == 0:
    later("alive-child"); os._exit(0)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/usr/bin/python3", ["/usr/bin/python3", "-c", "import time; time.sleep(1.5); open('alive-daemon','w').write('x'); time.sleep(30)  # ${token}"])
    os._exit(0)
time.sleep(0.2)
print('{"started": true}')
`,
};
