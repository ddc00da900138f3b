// Programs that look for another job's bytes (issue 59): one leaves a marker in its code, output, files and
// kernel keyrings; another scans its whole address space and every keyring it can reach for it. Shared by
// warm-security.test.ts and bench/security. Each prints one JSON line.
import { randomBytes } from "node:crypto";

/** A fresh marker, and its ASCII bytes as two hex halves: the scanner holds the halves, never the marker. */
export function leakMarker(): { marker: string; halves: [string, string] } {
  const marker = `openmle-leak-${randomBytes(16).toString("hex")}`;
  const bytes = Buffer.from(marker);
  const cut = bytes.length >> 1;
  return { marker, halves: [bytes.subarray(0, cut).toString("hex"), bytes.subarray(cut).toString("hex")] };
}

// add_key, request_key, keyctl (KEYCTL_GET_PERSISTENT, KEYCTL_READ, KEYCTL_DESCRIBE) on the two architectures
const KEY_CALLS = `
import ctypes, os, platform
libc = ctypes.CDLL(None, use_errno=True)
ADD_KEY, KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]
def err():
    return os.strerror(ctypes.get_errno())
def persistent():
    return libc.syscall(KEYCTL, 22, ctypes.c_long(-1), ctypes.c_long(-3))  # KEYCTL_GET_PERSISTENT into @s
`;

export const LEAK_PROGRAMS = {
  /** Print the marker on both streams, write it to a file, store it as a key in every keyring; then hold. */
  leave: (marker: string, holdS = 0) => `
import sys, time
${KEY_CALLS}
m = ${JSON.stringify(marker)}
for i in range(3000):
    print(m, "stdout", i)
sys.stdout.flush()
for i in range(300):
    print(m, "stderr", i, file=sys.stderr)
open("left.txt", "w").write(m * 100)
keys = {}
for name, ring in [("session", -3), ("user", -4), ("persistent", None)]:
    ring = persistent() if ring is None else ring
    r = ring if ring == -1 else libc.syscall(ADD_KEY, b"user", b"openmle-leak", m.encode(), len(m), ctypes.c_long(ring))
    keys[name] = "added" if r >= 0 else err()
sys.stdout.flush()
print('{"keys": %s}' % __import__("json").dumps(keys))
sys.stdout.flush()
time.sleep(${holdS})
`,
  /** Scan every readable mapping of this process (/proc/self/mem) and every reachable keyring for the marker. */
  scan: (halves: readonly [string, string]) => `
import json
${KEY_CALLS}
a, b = bytes.fromhex(${JSON.stringify(halves[0])}), bytes.fromhex(${JSON.stringify(halves[1])})
hits, scanned = 0, 0
mem = open("/proc/self/mem", "rb", buffering=0)
for line in open("/proc/self/maps").read().splitlines():
    f = line.split()
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    if f[1][0] != "r" or (len(f) > 5 and f[5].startswith(("[vvar", "[vsyscall"))):
        continue
    pos, tail = lo, b""
    while pos < hi:
        n = min(1 << 20, hi - pos)
        try:
            mem.seek(pos)
            chunk = mem.read(n)
        except OSError:
            break
        buf = tail + chunk
        i = buf.find(a)
        while i != -1:
            hits += buf[i + len(a):i + len(a) + len(b)] == b
            i = buf.find(a, i + 1)
        tail = buf[-(len(a) + len(b)):]
        pos += n
        scanned += n
keys = {}
for name, ring in [("session", -3), ("user", -4), ("persistent", None)]:
    ring = persistent() if ring is None else ring
    ids = ctypes.create_string_buffer(4096)
    n = ring if ring == -1 else libc.syscall(KEYCTL, 11, ctypes.c_long(ring), ids, 4096)
    if n < 0:
        keys[name] = err()
        continue
    found = []
    for k in __import__("struct").unpack("<%di" % (min(n, 4096) // 4), ids.raw[:min(n, 4096) // 4 * 4]):
        data = ctypes.create_string_buffer(4096)
        m = libc.syscall(KEYCTL, 11, ctypes.c_long(k), data, 4096)
        if m > 0 and data.raw[:m].find(a) != -1:
            found.append(k)
    keys[name] = found
print(json.dumps({"hits": hits, "scannedMb": scanned >> 20, "keys": keys}))
`,
  /** Fill this uid's key quota (1-byte keys in the session keyring), report how far it got, then hold. */
  fillKeyQuota: (holdS: number) => `
import json, time
${KEY_CALLS}
added, why = 0, ""
while added < 100000:
    r = libc.syscall(ADD_KEY, b"user", ("q%d" % added).encode(), b"x", 1, ctypes.c_long(-3))
    if r < 0:
        why = err()
        break
    added += 1
print(json.dumps({"added": added, "stopped": why}), flush=True)
time.sleep(${holdS})
`,
  /** Add one key; report whether the kernel let it. */
  addOneKey: () => `
import json
${KEY_CALLS}
r = libc.syscall(ADD_KEY, b"user", b"one", b"x", 1, ctypes.c_long(-3))
print(json.dumps({"add": "added" if r >= 0 else err()}))
`,
};
