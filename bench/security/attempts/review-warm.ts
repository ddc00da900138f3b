// Fresh adversarial review of warm start (issue 59, "a fresh adversarial review of warm start and the queue"):
// attacks a program forked from a zygote might try that warm-start.ts and warm-leak.ts do not: leftovers in the
// per-job IPC namespaces and devices, inherited descriptors, frames printed to look like the zygote's protocol,
// writes through /proc/self/mem into copy-on-write pages, the zygote's random state and layout, renicing others,
// the kernel calls the filter leaves, quotas and counters shared by every sandbox job, a stdout kept open past the
// program's end, a cleared parent-death signal, core dumps, memory charged to the zygote, other jobs' names.
// Each runs on its own WarmExecutor (perExecutor false), like warm-leak.ts.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { LocalExecutor, runSandbox, WarmExecutor, type Executor } from "../../../kit/sandbox/index.js";
import { hostPidsWith, lastJsonLine } from "../../../kit/sandbox/test-helpers.js";
import { LEAK_PROGRAMS } from "../../../kit/sandbox/warm-leak-programs.js";
import type { Attempt, AttemptContext } from "../attempt.js";

type Limits = { timeoutS: number; memoryMb: number; cpus: number };
const LIMITS: Limits = { timeoutS: 30, memoryMb: 1024, cpus: 1 };
let shared: WarmExecutor | undefined;
const warm = () => (shared ??= new WarmExecutor());
const run = (ctx: AttemptContext, code: string, executor: Executor = warm(), limits: Limits = LIMITS) =>
  runSandbox({ task: ctx.task, code, limits, executor, jobsDir: join(ctx.dir, "review-warm-jobs"), rerun: true });
const report = (stdout: string): Record<string, unknown> => {
  try {
    return lastJsonLine(stdout);
  } catch {
    return {};
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const j = (v: unknown) => JSON.stringify(v);
const token = (what: string) => `rv${what}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** Python: leave something of this job in every per-job namespace and device, then hold `holdS` seconds. */
const leaveIpc = (m: string, holdS: number) => String.raw`
import ctypes, json, os, socket, time
libc = ctypes.CDLL(None, use_errno=True)
rt = ctypes.CDLL("librt.so.1", use_errno=True)
m = "${m}"
left = {}
def note(k, f):
    try:
        f(); left[k] = "left"
    except Exception as e:
        left[k] = repr(e)[:80]
note("dev_shm", lambda: open("/dev/shm/" + m, "w").write(m))
note("tmp", lambda: open("/tmp/" + m, "w").write(m))
note("dev_file", lambda: open("/dev/" + m, "w").write(m))
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
note("abstract_socket", lambda: (s.bind("\0" + m), s.listen(5)))
def sysv():
    sid = libc.shmget(0x52560001, 4096, 0o1666)
    if sid < 0: raise OSError(ctypes.get_errno(), "shmget")
    libc.shmat.restype = ctypes.c_void_p
    p = libc.shmat(sid, None, 0)
    ctypes.memmove(p, m.encode(), len(m))
note("sysv_shm", sysv)
note("sysv_msg", lambda: libc.msgget(0x52560002, 0o1666) >= 0 or (_ for _ in ()).throw(OSError("msgget")))
note("sysv_sem", lambda: libc.semget(0x52560003, 1, 0o1666) >= 0 or (_ for _ in ()).throw(OSError("semget")))
class Attr(ctypes.Structure): _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long), ("msgsize", ctypes.c_long), ("cur", ctypes.c_long), ("pad", ctypes.c_long * 4)]
note("mqueue", lambda: rt.mq_open(b"/rvleft", os.O_CREAT | os.O_RDWR, 0o666, ctypes.byref(Attr(0, 4, 64, 0))) >= 0 or (_ for _ in ()).throw(OSError("mq_open")))
os.environ["RV_LEFT"] = m
os.putenv("RV_LEFT", m)
fd = os.open("/tmp/" + m, os.O_RDONLY)
os.set_inheritable(fd, True)
print(json.dumps({"left": left}), flush=True)
time.sleep(${holdS})
`;

/** Python: look for anything a job left (marker halves only, so this program never holds the marker itself). */
const findIpc = (halves: [string, string]) => String.raw`
import ctypes, json, os, socket
libc = ctypes.CDLL(None, use_errno=True)
rt = ctypes.CDLL("librt.so.1", use_errno=True)
m = "${halves[0]}" + "${halves[1]}"
links = {}
for fd in sorted(int(x) for x in os.listdir("/proc/self/fd")):
    try: links[fd] = os.readlink("/proc/self/fd/%d" % fd)
    except OSError: pass
found = []
for d in ("/dev/shm", "/tmp", "/dev"):
    found += [d + "/" + n for n in os.listdir(d) if n == m]
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect("\0" + m); found.append("abstract_socket")
except OSError:
    pass
if m in open("/proc/net/unix").read(): found.append("/proc/net/unix")
if libc.shmget(0x52560001, 0, 0) >= 0: found.append("sysv_shm")
if libc.msgget(0x52560002, 0) >= 0: found.append("sysv_msg")
if libc.semget(0x52560003, 0, 0) >= 0: found.append("sysv_sem")
for f in ("shm", "msg", "sem"):
    if len(open("/proc/sysvipc/" + f).read().splitlines()) > 1: found.append("/proc/sysvipc/" + f)
if rt.mq_open(b"/rvleft", os.O_RDONLY) >= 0: found.append("mqueue")
if m in os.environ.get("RV_LEFT", "") or m.encode() in open("/proc/self/environ", "rb").read(): found.append("environ")
print(json.dumps({"found": found, "fds": links}))
`;

/** Python: print frames that look like the zygote's protocol (exit, output, ready, failure) for job ids 0-63. */
const injectFrames = () => String.raw`
import json, os, struct, sys
fake = b""
for jid in range(0, 64):
    p = json.dumps({"code": {"exit": 0}}).encode()
    fake += struct.pack("<cII", b"x", jid, len(p)) + p
    fake += struct.pack("<cII", b"1", jid, 11) + b"INJECTED-1\n"
    fake += struct.pack("<cII", b"2", jid, 11) + b"INJECTED-2\n"
    p = json.dumps({"pid": 1}).encode()
    fake += struct.pack("<cII", b"s", jid, len(p)) + p
fake += struct.pack("<cII", b"r", 0, 2) + b"{}" + struct.pack("<cII", b"f", 0, 4) + b"dead"
fake += struct.pack("<cII", b"1", 1, 0xFFFFFFF0)  # a length that would make a reader wait for 4 GiB
os.write(1, fake); os.write(2, fake)
for cmd in ({"op": "kill", "id": 1}, {"op": "go", "id": 2}, {"op": "run", "id": 99, "job": "..", "env": {}}):
    sys.stdout.write("\n" + json.dumps(cmd) + "\n")
sys.stdout.flush()
print(json.dumps({"bytes": len(fake)}))
`;

/** Python: a sibling that sleeps, then prints one line; it must end as it would alone. */
const sibling = (s: number, line: string) => `import time\ntime.sleep(${s})\nprint(${j(line)})\n`;

/** Python: write into libc's text and numpy's ELF page (mprotect, and ptrace POKETEXT into its own child: the
 * kernel's forced write) and into numpy.pi's float: all pages shared copy-on-write with the zygote. (/proc is
 * read-only, so /proc/self/mem cannot be opened for writing.) */
const cowWrite = () => String.raw`
import ctypes, json, numpy, os, signal
libc = ctypes.CDLL(None, use_errno=True)
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
libc.ptrace.restype = ctypes.c_long
target = ctypes.cast(libc.strfry, ctypes.c_void_p).value
so = [l.split() for l in open("/proc/self/maps") if "_multiarray_umath" in l][0]
so_addr = int(so[0].split("-")[0], 16)
done = {}
try:
    open("/proc/self/mem", "r+b", buffering=0); done["proc_mem_rw"] = "opened"
except OSError as e:
    done["proc_mem_rw"] = e.strerror
# FOLL_FORCE: a traced child's read-only text, poked by its parent
pid = os.fork()
if pid == 0:
    libc.ptrace(0, 0, None, None); os.kill(os.getpid(), signal.SIGSTOP); os._exit(0)
os.waitpid(pid, os.WUNTRACED)
r = libc.ptrace(4, pid, ctypes.c_void_p(target + 8), ctypes.c_void_p(0xCCCCCCCCCCCCCCCC))  # PTRACE_POKETEXT
done["ptrace_poketext_child"] = "written" if r == 0 else os.strerror(ctypes.get_errno())
os.kill(pid, signal.SIGKILL); os.waitpid(pid, 0)
for name, addr in (("libc_text", target), ("numpy_elf", so_addr + 64)):
    page = addr & ~4095
    if libc.mprotect(page, 8192, 7) == 0:
        ctypes.memmove(addr, b"\xcc" * 8, 8); done[name] = "written"
    else:
        done[name] = os.strerror(ctypes.get_errno())
ctypes.memmove(id(numpy.pi) + 16, b"\xcc" * 8, 8); done["numpy_pi"] = "written"
print(json.dumps({"done": done, "pi": numpy.pi}))
`;

/** Python: read the same addresses (the layout is the zygote's) and compare them with the files. */
const cowCheck = (waitS: number) => String.raw`
import ctypes, json, numpy, os, time
time.sleep(${waitS})
libc = ctypes.CDLL(None)
target = ctypes.cast(libc.strfry, ctypes.c_void_p).value
so = [l.split() for l in open("/proc/self/maps") if "_multiarray_umath" in l][0]
so_addr = int(so[0].split("-")[0], 16)
mem = open("/proc/self/mem", "rb", buffering=0)
seen = {}
for name, addr in (("libc_text", target), ("libc_text_8", target + 8), ("numpy_elf", so_addr + 64)):
    mem.seek(addr); seen[name] = mem.read(8) == b"\xcc" * 8
seen["numpy_pi"] = numpy.pi != 3.141592653589793
print(json.dumps({"poisoned": [k for k, v in seen.items() if v]}))
`;

/** Python: the process-wide random state and layout a program starts with. */
const randomState = () => String.raw`
import ctypes, json, os, random, struct, uuid
import numpy as np
aux = dict(struct.iter_unpack("<QQ", open("/proc/self/auxv", "rb").read()))
mem = open("/proc/self/mem", "rb", buffering=0); mem.seek(aux[25]); at_random = mem.read(16).hex()
maps = open("/proc/self/maps").read().splitlines()
first = lambda s: next((l.split("-")[0] for l in maps if s in l), None)
print(json.dumps({"np_global": np.random.random(3).tolist(), "py_random": random.random(), "urandom": os.urandom(8).hex(),
                  "uuid4": str(uuid.uuid4()), "np_default_rng": np.random.default_rng().random(),
                  "at_random": at_random, "libc": first("libc.so"), "heap": first("[heap]"), "stack": first("[stack]")}))
`;

/** Python: lower the priority, I/O class and affinity of every process of uid 1000 it can name; signal owners. */
const renice = () => String.raw`
import ctypes, fcntl, json, os, signal
libc = ctypes.CDLL(None, use_errno=True)
r = {}
def t(name, f):
    try:
        v = f(); r[name] = "ok" if v is None or v == 0 else ("errno %d" % ctypes.get_errno() if v < 0 else "ok")
    except OSError as e:
        r[name] = e.strerror
t("setpriority_user_0", lambda: os.setpriority(os.PRIO_USER, 0, 19))
t("setpriority_user_1000", lambda: os.setpriority(os.PRIO_USER, 1000, 19))
t("setpriority_pgrp_1", lambda: os.setpriority(os.PRIO_PGRP, 1, 19))
t("ioprio_user_1000", lambda: libc.syscall(251, 3, 1000, 3 << 13))
t("ioprio_pgrp_0", lambda: libc.syscall(251, 2, 0, 3 << 13))
t("affinity_pid_1", lambda: os.sched_setaffinity(1, {0}))
def owner():
    fcntl.fcntl(1, fcntl.F_SETOWN, -1); fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_ASYNC)
    fcntl.fcntl(1, 10, signal.SIGKILL)  # F_SETSIG
t("stdout_owner_sigkill", owner)
print(json.dumps(r))
`;

/** Python: a sibling that reports its own nice, I/O priority and affinity after `s` seconds. */
const reportPriority = (s: number) => String.raw`
import ctypes, json, os, time
time.sleep(${s})
libc = ctypes.CDLL(None, use_errno=True)
print(json.dumps({"nice": os.getpriority(os.PRIO_PROCESS, 0), "ioprio": libc.syscall(252, 1, 0), "cpus": len(os.sched_getaffinity(0))}))
`;

/** Python: which kernel calls the filter leaves that Docker's default profile refuses. */
const kernelSurface = () => String.raw`
import ctypes, json, os, struct
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(nr, *args):
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return "reachable" if r >= 0 else os.strerror(ctypes.get_errno())
attr = ctypes.create_string_buffer(struct.pack("<IIQ", 1, 128, 0).ljust(128, b"\0"), 128)
res = {
    "io_uring_setup": call(425, 4, ctypes.create_string_buffer(120)),
    "userfaultfd": call(323, 0),
    "userfaultfd_user_mode": call(323, 1),
    "perf_event_open": call(298, attr, 0, -1, -1, 0),
    "bpf": call(321, 0, ctypes.create_string_buffer(128), 128),
    "memfd_secret": call(447, 0),
    "fanotify_init": call(300, 0, 0),
    "open_by_handle_at": call(304, -100, ctypes.create_string_buffer(64), 0),
    "personality_no_aslr": call(135, 0x0040000),
    "ptrace_traceme": call(101, 0, 0, 0, 0),
    "keyctl": call(250, 0, -3, 0),
    "clone_newuser": call(56, 0x10000000 | 17, 0, 0, 0, 0),
    "unshare_user": call(272, 0x10000000),
}
caps = [l.split()[1] for l in open("/proc/self/status") if l.startswith(("CapEff", "CapPrm"))]
print(json.dumps({"calls": res, "caps": caps}))
`;

/** Python: fill the per-uid and host-wide counters a job shares with every other sandbox job, then hold. */
const fillCounters = (holdS: number) => String.raw`
import ctypes, json, os, time
libc = ctypes.CDLL(None, use_errno=True)
rt = ctypes.CDLL("librt.so.1", use_errno=True)
r, held = {}, []
n = 0
while n < 1000:
    fd = libc.inotify_init1(0)
    if fd < 0: r["inotify_stop"] = os.strerror(ctypes.get_errno()); break
    held.append(fd); n += 1
r["inotify"] = n
n = 0
while n < 5000:
    try: held.append(os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)); n += 1
    except OSError as e: r["pty_stop"] = e.strerror; break
r["pty"] = n
class Attr(ctypes.Structure): _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long), ("msgsize", ctypes.c_long), ("cur", ctypes.c_long), ("pad", ctypes.c_long * 4)]
n = 0
while n < 200:
    fd = rt.mq_open(("/q%d" % n).encode(), os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(Attr(0, 10, 8192, 0)))
    if fd < 0: r["mq_stop"] = os.strerror(ctypes.get_errno()); break
    held.append(fd); n += 1
r["mqueue"] = n
print(json.dumps(r), flush=True)
time.sleep(${holdS})
`;

/** Python: what an ordinary program might need of those counters (a file watcher, a pty, a message queue). */
const useCounters = () => String.raw`
import ctypes, json, os
libc = ctypes.CDLL(None, use_errno=True)
rt = ctypes.CDLL("librt.so.1", use_errno=True)
r = {}
fd = libc.inotify_init1(0); r["inotify"] = "ok" if fd >= 0 else os.strerror(ctypes.get_errno())
try:
    import pty; pty.openpty(); r["pty"] = "ok"
except OSError as e:
    r["pty"] = str(e)
class Attr(ctypes.Structure): _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long), ("msgsize", ctypes.c_long), ("cur", ctypes.c_long), ("pad", ctypes.c_long * 4)]
fd = rt.mq_open(b"/mine", os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(Attr(0, 10, 8192, 0)))
r["mqueue"] = "ok" if fd >= 0 else os.strerror(ctypes.get_errno())
print(json.dumps(r))
`;

/** Python: put its own stdout and stderr in flight on a socket pair that holds itself, then end. */
const holdOutputInFlight = () => String.raw`
import array, socket
a, b = socket.socketpair()
fds = array.array("i", [1, 2, a.fileno(), b.fileno()])
for s in (a, b):
    s.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
print("in flight", flush=True)
`;

/** Python: clear the parent-death signal, ignore what can be ignored, become a long sleeper named by `tok`. */
const outliveParent = (tok: string) => String.raw`
import ctypes, os, signal
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(1, 0, 0, 0, 0)  # PR_SET_PDEATHSIG 0
for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
    signal.signal(s, signal.SIG_IGN)
if os.fork() == 0:
    os.setsid(); libc.prctl(1, 0, 0, 0, 0)
    os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(60)  # ${tok}"])
os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(60)  # ${tok}"])
`;

/** Python: allow core dumps and abort, once with a big heap. */
const coreDump = () => String.raw`
import os, resource
resource.setrlimit(resource.RLIMIT_CORE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
big = bytearray(b"\x01" * (200 << 20))
print("aborting", flush=True)
os.abort()
`;

/** Python: try to make memory land on the zygote's cgroup: read every page, write every private one, map /usr. */
const chargeZygote = () => String.raw`
import ctypes, json, mmap, os
mem = open("/proc/self/mem", "rb", buffering=0)
read = wrote = 0
for line in open("/proc/self/maps").read().splitlines():
    f = line.split()
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    if f[1][0] != "r" or (len(f) > 5 and f[5].startswith(("[vvar", "[vsyscall", "[vdso"))):
        continue
    pos = lo
    while pos < hi:
        n = min(1 << 20, hi - pos)
        try:
            mem.seek(pos); chunk = mem.read(n)
        except OSError:
            break
        read += len(chunk)
        if f[1][1] == "w" and f[1][3] == "p" and "[stack]" not in line:
            for off in range(0, len(chunk), 4096):
                ctypes.memmove(pos + off, chunk[off:off + 1], 1); wrote += 1
        pos += n
mapped = 0
for root, _, files in os.walk("/usr/lib/x86_64-linux-gnu"):
    for name in files:
        p = os.path.join(root, name)
        try:
            with open(p, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size and os.path.isfile(p):
                    mm = mmap.mmap(fh.fileno(), 0, prot=mmap.PROT_READ)
                    for off in range(0, size, 4096): mm[off]
                    mm.close(); mapped += size
        except (OSError, ValueError):
            pass
        if mapped > (300 << 20):
            break
    if mapped > (300 << 20):
        break
print(json.dumps({"readMb": read >> 20, "wrotePages": wrote, "mappedMb": mapped >> 20}))
`;

/** Python: call unshare(CLONE_NEWUSER) and keyctl through the i386 ABI (int 0x80), in a child in case it faults. */
const foreignAbi = () => String.raw`
import ctypes, json, mmap, os
def int80(nr, a, b=0, c=0):
    # mov eax, nr; mov ebx, a; mov ecx, b; mov edx, c; int 0x80; ret  (only the low 32 bits matter)
    code = b"\xb8" + nr.to_bytes(4, "little") + b"\xbb" + (a & 0xffffffff).to_bytes(4, "little") + \
           b"\xb9" + (b & 0xffffffff).to_bytes(4, "little") + b"\xba" + (c & 0xffffffff).to_bytes(4, "little") + b"\xcd\x80\xc3"
    buf = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    buf.write(code)
    f = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(buf)))
    return f()
res = {}
for name, nr, a, b in (("i386_unshare_user", 310, 0x10000000, 0), ("i386_keyctl_get_session", 288, 0, 0xfffffffd), ("i386_getpid", 20, 0, 0)):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            v = int80(nr, a, b)
        except Exception as e:
            v = str(e)
        os.write(w, json.dumps(v).encode()); os._exit(0)
    os.close(w)
    out = os.read(r, 200).decode()
    _, st = os.waitpid(pid, 0)
    res[name] = json.loads(out) if out else "child died (status %d)" % st
for k, v in res.items():
    if isinstance(v, int) and v < 0:
        res[k] = os.strerror(-v)
print(json.dumps(res))
`;

/** Python: reach the zygote's pid namespace or the user namespace above through nsfs ioctls. */
const nsIoctls = () => String.raw`
import fcntl, json, os
NS_GET_USERNS, NS_GET_PARENT, NS_GET_NSTYPE = 0xb701, 0xb702, 0xb703
res = {}
for ns in ("pid", "user", "mnt", "net", "pid_for_children"):
    try:
        fd = os.open("/proc/self/ns/" + ns, os.O_RDONLY)
    except OSError as e:
        res[ns] = "open: " + e.strerror; continue
    for name, req in (("parent", NS_GET_PARENT), ("userns", NS_GET_USERNS)):
        try:
            got = fcntl.ioctl(fd, req)
            res[ns + "_" + name] = "fd " + os.readlink("/proc/self/fd/%d" % got)
        except OSError as e:
            res[ns + "_" + name] = e.strerror
print(json.dumps(res))
`;

/** Python: print the zygote's own failure line and exit 1, as if warm start had failed. */
const forgeSandboxError = () => String.raw`
import sys
print("training... Final Validation Score: 0.1")
sys.stderr.write("openmle-sandbox: warm start failed: mount /workspace: Permission denied\n")
sys.exit(1)
`;

/** The same for a cold start: bubblewrap's own failure line. */
const forgeBwrapError = () => String.raw`
import sys
sys.stderr.write("bwrap: Can't mount proc on /newroot/proc: Operation not permitted\n")
sys.exit(1)
`;

const halvesOf = (s: string): [string, string] => {
  const b = Buffer.from(s);
  return [b.subarray(0, b.length >> 1).toString("hex"), b.subarray(b.length >> 1).toString("hex")];
};
const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

/** The memory cgroup (v1 or v2) usage of a host pid, bytes; null where none is found. */
function memUsage(pid: number): number | null {
  try {
    const lines = readFileSync(`/proc/${pid}/cgroup`, "utf8").split("\n");
    const v1 = lines.find((l) => /^\d+:memory:/.test(l));
    if (v1) return Number(readFileSync(`/sys/fs/cgroup/memory${v1.split(":")[2]}/memory.usage_in_bytes`, "utf8"));
    const v2 = lines.find((l) => l.startsWith("0::"));
    if (v2) return Number(readFileSync(`/sys/fs/cgroup${v2.slice(3)}/memory.current`, "utf8"));
  } catch {
    /* none */
  }
  return null;
}

export const attempts: Attempt[] = [
  {
    id: "ipc-leftovers",
    source: "issue 59 review",
    what: "leave a file in /dev/shm, /tmp and /dev, an abstract unix socket, SysV shm/msg/sem, a POSIX mqueue, an env var and an inheritable fd; the next program and one running beside it look for them",
    perExecutor: false,
    async run(ctx) {
      const m = token("ipc");
      const h = halvesOf(m);
      const left = report((await run(ctx, leaveIpc(m, 0))).stdoutTail).left;
      const after = report((await run(ctx, findIpc(h))).stdoutTail);
      const holding = run(ctx, leaveIpc(m, 4));
      await sleep(2000);
      const beside = report((await run(ctx, findIpc(h))).stdoutTail);
      await holding;
      const fdsOk = (r: Record<string, unknown>) => {
        const fds = (r.fds ?? {}) as Record<string, string>;
        return j(Object.keys(fds).sort()) === j(["0", "1", "2"]) && fds["0"] === "/dev/null";
      };
      const held = j(after.found) === "[]" && j(beside.found) === "[]" && fdsOk(after) && fdsOk(beside);
      return { held, detail: `left ${j(left)}; next found ${j(after.found)}, beside found ${j(beside.found)}; next's fds ${j(after.fds)}` };
    },
  },
  {
    id: "frame-injection",
    source: "issue 59 review",
    what: "print bytes shaped as the zygote's frames (exit/output/ready/fail for job ids 0-63, a 4 GiB length) and command lines; a sibling running beside it and the next program must end as they would",
    perExecutor: false,
    async run(ctx) {
      await run(ctx, "print(1)");
      const before = warm().zygotePids();
      const sib = run(ctx, sibling(3, "sibling-ok"));
      await sleep(1200);
      const inj = await run(ctx, injectFrames());
      const s = await sib;
      const next = await run(ctx, "print('next-ok')");
      const verbatim = inj.stdoutTail.includes("INJECTED-1") && inj.stderrTail.includes("INJECTED-2");
      const held = s.stdoutTail === "sibling-ok\n" && s.exitCode === 0 && next.stdoutTail === "next-ok\n" && j(warm().zygotePids()) === j(before) && verbatim;
      return { held, detail: `injector's own output carried the frames verbatim: ${verbatim}; sibling ${j(s.stdoutTail)} exit ${s.exitCode}; next ${j(next.stdoutTail)}; zygote ${j(warm().zygotePids()) === j(before) ? "unchanged" : "changed"}` };
    },
  },
  {
    id: "cow-write",
    source: "issue 59 review",
    what: "write through /proc/self/mem into libc's text, numpy's ELF page and numpy.pi (pages shared copy-on-write with the zygote); a sibling and the next program read them, the host hashes the files",
    perExecutor: false,
    async run(ctx) {
      await run(ctx, "import numpy");
      const w0 = report((await run(ctx, "import json,numpy,ctypes\nso=[l.split() for l in open('/proc/self/maps') if '_multiarray_umath' in l][0]\nprint(json.dumps({'so_path': so[5]}))")).stdoutTail);
      const soPath = String(w0.so_path ?? "");
      const libc = "/usr/lib/x86_64-linux-gnu/libc.so.6";
      const hashes = () => [existsSync(libc) ? sha(libc) : "", soPath && existsSync(soPath) ? sha(soPath) : ""];
      const before = hashes();
      const sib = run(ctx, cowCheck(3));
      await sleep(1000);
      const wrote = report((await run(ctx, cowWrite())).stdoutTail);
      const beside = report((await sib).stdoutTail);
      const next = report((await run(ctx, cowCheck(0))).stdoutTail);
      const filesSame = j(hashes()) === j(before);
      const held = j(beside.poisoned) === "[]" && j(next.poisoned) === "[]" && filesSame;
      return { held, detail: `writer: ${j(wrote.done)}, its own pi now ${wrote.pi}; beside saw poisoned ${j(beside.poisoned)}, next ${j(next.poisoned)}; files ${filesSame ? "unchanged" : "CHANGED"}` };
    },
  },
  {
    id: "random-state",
    source: "issue 59 review",
    what: "two programs of one zygote compare their unseeded random state (numpy's global RandomState, random, os.urandom, uuid4) and layout (AT_RANDOM, libc/heap/stack addresses)",
    perExecutor: false,
    async run(ctx) {
      const a = report((await run(ctx, randomState())).stdoutTail);
      const b = report((await run(ctx, randomState())).stdoutTail);
      const same = Object.keys(a).filter((k) => j(a[k]) === j(b[k]));
      const rng = same.filter((k) => ["np_global", "py_random", "urandom", "uuid4", "np_default_rng"].includes(k));
      return { held: rng.length === 0, detail: `equal in both programs: ${same.join(", ") || "nothing"} (numpy global: ${j(a.np_global)})` };
    },
  },
  {
    id: "renice-others",
    source: "issue 59 review",
    what: "setpriority(PRIO_USER, 1000, 19), ioprio_set(IOPRIO_WHO_USER), affinity of pid 1, stdout's owner set to SIGKILL pid -1; a sibling and the zygote keep their priority",
    perExecutor: false,
    async run(ctx) {
      await run(ctx, "print(1)");
      const zp = warm().zygotePids();
      const nice = (p: number) => readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ")[16];
      const before = zp.map(nice);
      const sib = run(ctx, reportPriority(3));
      await sleep(1200);
      const r = report((await run(ctx, renice())).stdoutTail);
      const s = report((await sib).stdoutTail);
      const after = zp.map(nice);
      const held = s.nice === 0 && s.ioprio === 0 && j(after) === j(before) && j(warm().zygotePids()) === j(zp);
      return { held, detail: `calls ${j(r)}; sibling ${j(s)}; zygote nice ${j(before)} -> ${j(after)}` };
    },
  },
  {
    id: "kernel-surface",
    source: "issue 59 review",
    what: "io_uring, userfaultfd, perf_event_open, bpf, memfd_secret, fanotify, open_by_handle_at, personality, ptrace, keyctl, nested user namespaces: which are reachable, and does any give a capability",
    perExecutor: false,
    async run(ctx) {
      const r = report((await run(ctx, kernelSurface())).stdoutTail);
      const calls = (r.calls ?? {}) as Record<string, string>;
      const reachable = Object.keys(calls).filter((k) => calls[k] === "reachable");
      const forbidden = reachable.filter((k) => ["keyctl", "clone_newuser", "unshare_user", "fanotify_init", "open_by_handle_at", "bpf", "perf_event_open"].includes(k));
      const caps = (r.caps as string[] | undefined) ?? [];
      const held = Object.keys(calls).length > 0 && forbidden.length === 0 && caps.every((c) => /^0+$/.test(c));
      return { held, detail: `reachable: ${reachable.join(", ") || "none"}; caps ${caps.join("/")}` };
    },
  },
  {
    id: "shared-counters",
    source: "issue 59 review (as 59.2's key quota)",
    what: "one warm job takes all 128 inotify instances of the sandbox uid, every pty of new devpts instances and the uid's POSIX mqueue bytes; a warm job beside it and a cold job then ask for one of each, and must get what they get with no filler running",
    perExecutor: false,
    async run(ctx) {
      const baseW = report((await run(ctx, useCounters())).stdoutTail);
      const baseC = report((await run(ctx, useCounters(), new LocalExecutor())).stdoutTail);
      const filling = run(ctx, fillCounters(6));
      await sleep(3000);
      const w = report((await run(ctx, useCounters())).stdoutTail);
      const c = report((await run(ctx, useCounters(), new LocalExecutor())).stdoutTail);
      const f = report((await filling).stdoutTail);
      const changed = [...Object.keys(baseW).filter((k) => w[k] !== baseW[k]).map((k) => `warm ${k} (${w[k]})`), ...Object.keys(baseC).filter((k) => c[k] !== baseC[k]).map((k) => `cold ${k} (${c[k]})`)];
      return { held: changed.length === 0 && Object.keys(w).length > 0, detail: `filler took ${j(f)}; alone: warm ${j(baseW)}, cold ${j(baseC)}; beside it, changed: ${changed.join(", ") || "nothing"}` };
    },
  },
  {
    id: "output-in-flight",
    source: "issue 59 review",
    what: "send its stdout and stderr over a unix socket pair that holds itself (no process left holding them); the job must still end, and the next one run",
    perExecutor: false,
    async run(ctx) {
      const t = performance.now();
      const r = await run(ctx, holdOutputInFlight(), warm(), { ...LIMITS, timeoutS: 10 });
      const s = (performance.now() - t) / 1000;
      const next = await run(ctx, "print('next-ok')", warm(), { ...LIMITS, timeoutS: 10 });
      return { held: s < 9 && r.status !== "timeout" && next.stdoutTail === "next-ok\n", detail: `ended after ${s.toFixed(1)} s (${r.status}); next ${j(next.stdoutTail)}` };
    },
  },
  {
    id: "outlive-parent",
    source: "issue 59 review",
    what: "clear PR_SET_PDEATHSIG, ignore SIGTERM/HUP/INT and exec a 60 s sleeper (plus a setsid child) under a 3 s timeout, on a warm executor without cgroups (RLIMIT_AS path) and with them",
    perExecutor: false,
    async run(ctx) {
      const out: string[] = [];
      let held = true;
      for (const cgroup of [false, true]) {
        const ex = new WarmExecutor({ cgroup });
        try {
          const tok = token("outlive");
          const t = performance.now();
          const r = await run(ctx, outliveParent(tok), ex, { ...LIMITS, timeoutS: 3 });
          const s = (performance.now() - t) / 1000;
          await sleep(1500);
          const alive = hostPidsWith(tok).length;
          held &&= alive === 0 && r.status === "timeout" && s < 10;
          out.push(`cgroup ${cgroup}: ${r.status} after ${s.toFixed(1)} s, ${alive} left`);
        } finally {
          await ex.close();
        }
      }
      return { held, detail: out.join("; ") };
    },
  },
  {
    id: "core-dump",
    source: "issue 59 review",
    what: "raise RLIMIT_CORE and abort with a 200 MiB heap: where does the dump of a zygote-forked process go, and is it within the job's folder and disk limit",
    perExecutor: false,
    async run(ctx) {
      const r = await run(ctx, coreDump(), warm(), { ...LIMITS, timeoutS: 30 });
      const dir = join(ctx.dir, "review-warm-jobs", r.executionId);
      const cores = existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith("core")) : [];
      const sizes = cores.map((n) => statSync(join(dir, n)).size >> 20);
      const strays = ["/core", join(process.cwd(), "core")].filter(existsSync);
      return { held: strays.length === 0, detail: `${r.status} ${r.exitSignal ?? ""}; core files in its own folder ${j(cores)} (${j(sizes)} MiB); outside: ${j(strays)}` };
    },
  },
  {
    id: "charge-zygote",
    source: "issue 59 review",
    what: "read every page, write one byte of every private page and map 300 MiB of /usr libraries, to make memory land on the zygote's cgroup instead of the job's",
    perExecutor: false,
    async run(ctx) {
      await run(ctx, "print(1)");
      const zp = warm().zygotePids()[0];
      if (!zp) return { held: false, detail: "no zygote pid" };
      const before = memUsage(zp);
      const r = await run(ctx, chargeZygote(), warm(), { ...LIMITS, memoryMb: 1024 });
      const after = memUsage(zp);
      if (before === null || after === null) return { held: true, detail: "skipped: the zygote's memory cgroup was not found" };
      const grew = (after - before) / 1048576;
      return { held: grew < 32, detail: `program ${j(report(r.stdoutTail))} (${r.status}, peak ${r.peakMemMb} MiB); zygote cgroup ${(before / 1048576).toFixed(0)} -> ${(after / 1048576).toFixed(0)} MiB` };
    },
  },
  {
    id: "foreign-abi",
    source: "issue 59 review",
    what: "unshare(CLONE_NEWUSER) and keyctl through the i386 system call ABI (int 0x80) from a warm program",
    perExecutor: false,
    async run(ctx) {
      const r = report((await run(ctx, foreignAbi())).stdoutTail);
      const held = Object.keys(r).length > 0 && typeof r.i386_unshare_user !== "number" && typeof r.i386_keyctl_get_session !== "number";
      return { held, detail: j(r) };
    },
  },
  {
    id: "ns-ioctls",
    source: "issue 59 review",
    what: "NS_GET_PARENT / NS_GET_USERNS on its pid, user, mount and net namespaces: a handle on the zygote's pid namespace or the user namespace above",
    perExecutor: false,
    async run(ctx) {
      const r = report((await run(ctx, nsIoctls())).stdoutTail) as Record<string, string>;
      const parents = ["pid_parent", "user_parent", "pid_for_children_parent"].filter((k) => String(r[k] ?? "").startsWith("fd"));
      return { held: Object.keys(r).length > 0 && parents.length === 0, detail: j(r) };
    },
  },
  {
    id: "forge-sandbox-error",
    source: "issue 59 review",
    what: "a program prints the zygote's (warm) or bubblewrap's (cold) own failure line and exits 1: is its failure recorded as the sandbox's (sandbox_error: not stored, not remembered, rerun)?",
    perExecutor: false,
    async run(ctx) {
      const w = await run(ctx, forgeSandboxError());
      const c = await run(ctx, forgeBwrapError(), new LocalExecutor());
      const forged = [w.errorType === "sandbox_error" ? "warm" : "", c.errorType === "sandbox_error" ? "cold" : ""].filter(Boolean);
      return { held: forged.length === 0, detail: `warm: ${w.status}/${w.errorType}; cold: ${c.status}/${c.errorType}` };
    },
  },
  {
    id: "job-names",
    source: "issue 59 review",
    what: "the next program scans its memory for the previous job's folder name (what the zygote's command carried); names are random ids, so finding one tells nothing of its content",
    perExecutor: false,
    async run(ctx) {
      const a = await run(ctx, "print('a')");
      const name = basename(join(ctx.dir, "review-warm-jobs", a.executionId));
      const rep = report((await run(ctx, LEAK_PROGRAMS.scan(halvesOf(name)))).stdoutTail);
      return { held: true, detail: `copies of the previous job's folder name (${name.slice(0, 8)}…, a random UUID): ${rep.hits}` };
    },
  },
];

/** Stop the shared executor (the driver calls it once at the end). */
export async function closeReviewWarm(): Promise<void> {
  await shared?.close();
  shared = undefined;
}
