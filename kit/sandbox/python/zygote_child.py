"""The privileged half of a warm-started child (zygote.py): namespaces, mounts, limits, and the capability
drop, no_new_privs and seccomp filter that come before the program's first line."""

import ctypes
import errno
import fcntl
import os
import resource
import signal
import socket
import struct
import sys

LIBC = ctypes.CDLL(None, use_errno=True)

CLONE = {"ns": 0x00020000, "cgroup": 0x02000000, "uts": 0x04000000, "ipc": 0x08000000,
         "user": 0x10000000, "pid": 0x20000000, "net": 0x40000000, "time": 0x00000080}
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_MOVE, MS_REC, MS_PRIVATE = 32, 4096, 8192, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP = 1, 4, 24
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 38, 22, 47, 4

# Syscall numbers per architecture: (audit arch, capset, the refused calls, clone, clone3).
# Calls whose kernel quota is kept per host uid are refused too (issue 59; kit/jail/uid-quota-filter.ts refuses
# the same for every sandboxed process): the keyrings (every program of a zygote is the same uid in the same user
# namespace, so the user, persistent and session keyrings would also carry keys from one program to the next),
# inotify instances and POSIX message queues. One program holding the uid's quota would stop every other job.
QUOTA = {
    "x86_64": {"add_key": 248, "request_key": 249, "keyctl": 250, "inotify_init": 253, "inotify_init1": 294,
               "mq_open": 240},
    "aarch64": {"add_key": 217, "request_key": 218, "keyctl": 219, "inotify_init1": 26, "mq_open": 180},
}
ARCHES = {
    "x86_64": (0xC000003E, 126, {"unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
                                 "chroot": 161, **QUOTA["x86_64"]}, 56, 435),
    "aarch64": (0xC00000B7, 91, {"unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41,
                                 "chroot": 51, **QUOTA["aarch64"]}, 220, 435),
}
# The new mount API (same numbers on every architecture since 5.2).
NEW_MOUNT_API = {"open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
                 "mount_setattr": 442}


def check(ret, what):
    if ret != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"{what}: {os.strerror(e)}")


def mount(src, target, fstype, flags, data=None):
    enc = lambda s: None if s is None else s.encode()  # noqa: E731
    check(LIBC.mount(enc(src), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)), f"mount {target}")


def seccomp_program(arch):
    """BPF: refuse namespace, mount and per-uid quota calls (EPERM), clone3 (ENOSYS: libc falls back to clone, whose flags
    are checked), foreign-architecture and x32 calls; allow the rest."""
    audit, _, refused, clone, clone3 = ARCHES[arch]
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
    ns_flags = sum(v for k, v in CLONE.items() if k != "time")  # (CLONE_NEWTIME only exists for clone3/unshare)
    nrs = list(refused.values()) + list(NEW_MOUNT_API.values())
    prog = [(ld, 0, 0, 4), (jeq, 1, 0, audit), (ret, 0, 0, eperm), (ld, 0, 0, 0)]
    if arch == "x86_64":
        prog += [(jge, 0, 1, 0x40000000), (ret, 0, 0, eperm)]
    for nr in nrs:
        prog += [(jeq, 0, 1, nr), (ret, 0, 0, eperm)]
    prog += [(jeq, 0, 1, clone3), (ret, 0, 0, enosys)]
    # clone: the flags are args[0] (low word at offset 16 on little-endian machines).
    prog += [(jeq, 0, 3, clone), (ld, 0, 0, 16), (jset, 0, 1, ns_flags), (ret, 0, 0, eperm), (ret, 0, 0, allow)]
    return prog


class SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]


def drop_privileges(arch):
    """Every capability gone (bounding, ambient, effective, permitted, inheritable), no_new_privs, seccomp."""
    last = int(open("/proc/sys/kernel/cap_last_cap").read())
    for cap in range(last + 1):
        check(LIBC.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), "drop bounding capability")
    check(LIBC.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clear ambient capabilities")
    header = struct.pack("<Ii", 0x20080522, 0)
    data = bytes(24)
    hbuf, dbuf = ctypes.create_string_buffer(header), ctypes.create_string_buffer(data)
    check(LIBC.syscall(ARCHES[arch][1], hbuf, dbuf), "capset")
    check(LIBC.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), "dumpable")
    check(LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    prog = seccomp_program(arch)
    arr = (SockFilter * len(prog))(*[SockFilter(*p) for p in prog])
    fprog = SockFprog(len(prog), arr)
    check(LIBC.prctl(PR_SET_SECCOMP, 2, ctypes.byref(fprog), 0, 0), "seccomp")


def loopback_up():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        req = struct.pack("16sH22x", b"lo", 0)
        flags = struct.unpack("16sH22x", fcntl.ioctl(s, 0x8913, req))[1]
        fcntl.ioctl(s, 0x8914, struct.pack("16sH22x", b"lo", flags | 0x1 | 0x40))  # IFF_UP | IFF_RUNNING
    finally:
        s.close()


def fresh_dev():
    """A /dev like the cold sandbox's (bubblewrap's --dev with /dev/pts covered): a tmpfs with the six character
    devices bound in, the GPU devices the zygote was given, the usual links, shm and an empty /dev/pts: no
    pseudo-terminals, since the kernel counts them in one pool for the whole host (kernel.pty.max), which one job
    could drain (issue 59). Built at /.stage, then moved over the zygote's /dev."""
    mount("tmpfs", "/.stage", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
    for name in ("null", "zero", "full", "random", "urandom", "tty"):
        open(f"/.stage/{name}", "w").close()
        mount(f"/dev/{name}", f"/.stage/{name}", None, MS_BIND)
    for name in sorted(n for n in os.listdir("/dev") if n.startswith("nvidia")):  # --gpus jobs' zygotes only
        if os.path.isdir(f"/dev/{name}"):
            os.mkdir(f"/.stage/{name}")
        else:
            open(f"/.stage/{name}", "w").close()
        mount(f"/dev/{name}", f"/.stage/{name}", None, MS_BIND | MS_REC)
    links = {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
             "stderr": "/proc/self/fd/2", "core": "/proc/kcore", "ptmx": "pts/ptmx"}
    for name, target in links.items():
        os.symlink(target, f"/.stage/{name}")
    os.mkdir("/.stage/shm", 0o755)
    os.mkdir("/.stage/pts", 0o755)
    mount("/.stage", "/dev", None, MS_MOVE)


def setup_child(spec):
    """Step 1 (in C, still holding the zygote's capabilities): namespaces and mounts."""
    flags = sum(CLONE[k] for k in ("ns", "pid", "net", "ipc", "uts", "cgroup"))
    check(LIBC.unshare(flags), "unshare")
    mount("none", "/", None, MS_REC | MS_PRIVATE)
    job = spec["job"]
    if "/" in job or job in ("", ".", ".."):
        raise ValueError(f"bad job folder name {job!r}")
    mount(f"/.jobs/{job}", "/workspace", None, MS_BIND)
    # bubblewrap's mounts are locked here (its last user namespace is a child of the one that made them), so they
    # cannot be unmounted; an empty read-only tmpfs over each hides them, and is locked in turn for the program.
    for hidden in ("/.jobs", "/.zygote"):
        mount("tmpfs", hidden, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555")
    mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
    fresh_dev()
    loopback_up()


def become_program(spec, arch):
    """Step 3 (in G, PID 1 of its own namespaces): /proc, limits, privileges, environment."""
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY)
    fsize = spec.get("fsizeBytes")
    if fsize:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    as_bytes = spec.get("asBytes")
    if as_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (as_bytes, as_bytes))
    drop_privileges(arch)
    for sig in range(1, signal.NSIG):
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError, RuntimeError):
            pass
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as CPython sets it at start-up
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.environ.clear()
    os.environ.update(spec["env"])
    os.chdir("/workspace")
    # CPython reseeds `random` in a forked child; numpy does not, so every program of a zygote would draw the same
    # unseeded numbers (and one could predict another's). A cold start seeds from OS entropy: so does this.
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed()
