// Shared by the sandbox tests, notebook and benchmark: the fixture task package and programs.
import { cpSync, mkdirSync, readFileSync, readdirSync, statfsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
/** Source folder of the fixtures (works from kit/ and from dist/kit/, which has no copies). */
export const FIXTURES = join(HERE.replace(/\/dist\/kit\/sandbox$/, "/kit/sandbox"), "test-fixtures");
export const TINY_TASK_DIR = join(FIXTURES, "tiny-task");

/**
 * A copy of the fixture task at `dest`, with some files replaced (paths relative to the package).
 * With `meta`, a task.json is written too, so loading the copy needs no metric inspection.
 */
export function copyTask(dest: string, files: Readonly<Record<string, string>> = {}, meta?: object): string {
  cpSync(TINY_TASK_DIR, dest, { recursive: true });
  if (meta) writeFileSync(join(dest, "task.json"), JSON.stringify(meta));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dest, rel)), { recursive: true });
    writeFileSync(join(dest, rel), text);
  }
  return dest;
}

/**
 * A metric.py whose class runs `body` (Python, may use json/os/socket) when it validates a
 * submission, then reports what it saw as the validation error message (so the record carries it).
 */
export function spyMetric(body: string): string {
  return `import json, os, socket
class SpyMetric:
    def __init__(self, value="label", higher_is_better=True):
        self.value = value
    def validate_submission(self, submission, ground_truth):
        seen = {}
${body
  .split("\n")
  .map((l) => `        ${l}`)
  .join("\n")}
        raise ValueError("SPY " + json.dumps(seen))
    def evaluate(self, y_true, y_pred):
        return 1.0
`;
}

/** A fixture program by name (test-fixtures/programs/<name>.py). */
export function program(name: string): string {
  return readFileSync(join(FIXTURES, "programs", `${name}.py`), "utf8");
}

/** Host pids whose command line contains `token` (to prove nothing of a job survived it). */
export function hostPidsWith(token: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(token)) out.push(Number(name));
    } catch {
      /* exited */
    }
  }
  return out;
}

/**
 * Adversarial programs (security tests, local and Docker). Each tries one escape, prints what it
 * observed as one JSON line, and exits 0, so the test checks both its report and the host.
 */
export const ADVERSARIAL = {
  readPrivate: (privateAnswers: string) => `
import json, os
found = []
for path in [${JSON.stringify(privateAnswers)}, "/data/../private/test_answer.csv", "/proc/1/root${privateAnswers}"]:
    try:
        found.append(open(path).read()[:40])
    except Exception as e:
        pass
for root, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if not (root == "/" and d in ("proc", "sys", "usr", "dev"))]
    if "test_answer.csv" in files:
        found.append(os.path.join(root, "test_answer.csv"))
print(json.dumps({"found": found}))
`,
  network: (port: number) => `
import json, socket
res = {}
try:
    socket.create_connection(("127.0.0.1", ${port}), timeout=2).close(); res["loopback"] = "connected"
except Exception as e:
    res["loopback"] = type(e).__name__
try:
    socket.getaddrinfo("example.com", 80); res["dns"] = "resolved"
except Exception as e:
    res["dns"] = type(e).__name__
res["interfaces"] = [n for _, n in socket.if_nameindex()]
print(json.dumps(res))
`,
  leaveProcesses: (token: string) => `
import os, subprocess, sys, time
# 1. a plain child that sleeps, then would write a marker
if os.fork() == 0:
    time.sleep(1.5); open("alive-child", "w").write("x"); os._exit(0)
# 2. a double-forked daemon in its own session
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/usr/bin/python3", ["/usr/bin/python3", "-c", "import time; time.sleep(1.5); open('alive-daemon','w').write('x'); time.sleep(30)  # ${token}"])
    os._exit(0)
time.sleep(0.3)
print('{"started": true}')
`,
  memoryBomb: () => `
chunks = []
for i in range(200):
    chunks.append(bytearray(50 * 1024 * 1024))  # 10 GB in total if nothing stops it
print('{"allocated_mb": %d}' % (len(chunks) * 50))
`,
  hostPrivileges: (rootOnlyFiles: readonly string[]) => `
import json, os
# 1. every /proc/sys entry (and other host-global /proc knobs), opened for writing: nothing is written
writable = []
for root, dirs, files in os.walk("/proc/sys"):
    for f in files:
        p = os.path.join(root, f)
        try:
            os.close(os.open(p, os.O_WRONLY)); writable.append(p)
        except OSError:
            pass
for p in ["/proc/sysrq-trigger", "/proc/sys/kernel/core_pattern"]:
    try:
        os.close(os.open(p, os.O_WRONLY)); writable.append(p)
    except OSError:
        pass
# 2. files only root may read
readable = []
for p in ${JSON.stringify(rootOnlyFiles)}:
    try:
        open(p).read(1); readable.append(p)
    except OSError:
        pass
# 3. a file it owns, for the host to look at
open("owned-by-job.txt", "w").write("x")
print(json.dumps({"writable": writable, "readable": readable, "sysfs": os.path.exists("/sys/kernel")}))
`,
  writeOutside: (targets: readonly string[]) => `
import json
res = {}
for p in ${JSON.stringify(targets)}:
    try:
        open(p, "w").write("pwned"); res[p] = "written"
    except Exception as e:
        res[p] = type(e).__name__
open("/tmp/inside-tmp", "w").write("ok")
open("inside-workspace.txt", "w").write("ok")
print(json.dumps(res))
`,
  /** Creates `files` files of `mib` MiB in the job folder, each unlinked before it is written and kept open. */
  holdDeletedFiles: (files: number, mib: number, pauseS: number) => `
import os, time
chunk = b"x" * (1 << 20)
held = []
for i in range(${files}):
    fd = os.open(f"held-{i}.bin", os.O_RDWR | os.O_CREAT)
    os.unlink(f"held-{i}.bin")
    for _ in range(${mib}):
        os.write(fd, chunk)
    held.append(fd)
    print(f"held {i + 1}", flush=True)
    time.sleep(${pauseS})
time.sleep(5)
print("all held", flush=True)
`,
};

/** What `fn` returns, and the most the used space of `dir`'s filesystem rose while it ran (sampled every 20 ms). */
export async function withDiskRise<T>(dir: string, fn: () => Promise<T>): Promise<{ result: T; riseMiB: number }> {
  const used = () => {
    const s = statfsSync(dir);
    return (s.blocks - s.bfree) * s.bsize;
  };
  const base = used();
  let max = 0;
  const timer = setInterval(() => (max = Math.max(max, used() - base)), 20);
  try {
    const result = await fn();
    max = Math.max(max, used() - base);
    return { result, riseMiB: max / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

/**
 * A TCP listener on 127.0.0.1 that counts connections: the network tests point adversarial
 * programs at it and check that nothing arrived.
 */
export async function startCanary(): Promise<{ port: number; connections(): number; close(): void }> {
  let connections = 0;
  const server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => server.close(),
  };
}

/** The JSON object an adversarial program prints as its last stdout line. */
export function lastJsonLine(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}
