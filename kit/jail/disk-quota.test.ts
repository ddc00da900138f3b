// The disk quota counts deleted files a job keeps open (issue 25, break 6): the message, and what
// deletedOpenFiles finds in a real Python process's descriptors and mappings.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deletedOpenFiles } from "./deleted-open-files.js";
import {
  diskUsage, diskUsageSync, quotaMessage, SYNC_WALK_ENTRIES, watchDiskQuota, type DiskUsage,
} from "./disk-quota.js";

const MiB = 1024 * 1024;
const q = { maxBytes: 64 * MiB, maxFiles: 50_000 };

describe("quotaMessage", () => {
  it.each<[string, DiskUsage, string | null]>([
    ["within", { bytes: 64 * MiB, files: 10 }, null],
    ["within, with deleted files", { bytes: 60 * MiB, files: 3, deleted: { bytes: 50 * MiB, files: 2 } }, null],
    ["over, the folder only", { bytes: 100 * MiB, files: 3 }, "disk quota exceeded: the job folder holds 100.0 MiB, over its 64.0 MiB limit (limits.diskMb); the job was killed"],
    ["over, no deleted file found", { bytes: 100 * MiB, files: 3, deleted: { bytes: 0, files: 0 } }, "disk quota exceeded: the job folder holds 100.0 MiB, over its 64.0 MiB limit (limits.diskMb); the job was killed"],
    ["over, deleted files counted", { bytes: 121 * MiB, files: 4, deleted: { bytes: 120 * MiB, files: 2 } }, "disk quota exceeded: the job holds 121.0 MiB (its folder 1.0 MiB; 2 deleted files its processes keep open, counted too: 120.0 MiB), over its 64.0 MiB limit (limits.diskMb); the job was killed"],
    ["too many entries", { bytes: MiB, files: 50_001 }, "disk quota exceeded: the job folder holds over 50000 files and folders; the job was killed"],
  ])("%s", (_, u, message) => {
    expect(quotaMessage(u, q)).toBe(message);
  });
});

/** Holds: a 3 MiB deleted file (twice, by dup), a 2 MiB named one, a 4 MiB memfd, a 5 MiB deleted file mapped and closed. */
const HOLDER = `
import ctypes, os, sys, time
d = sys.argv[1]
def fill(fd, mib):
    for _ in range(mib):
        os.write(fd, b"x" * (1 << 20))
deleted = os.open(f"{d}/deleted", os.O_RDWR | os.O_CREAT); os.unlink(f"{d}/deleted"); fill(deleted, 3); os.dup(deleted)
named = os.open(f"{d}/named", os.O_RDWR | os.O_CREAT); fill(named, 2)
memfd = os.memfd_create("m"); fill(memfd, 4)
libc = ctypes.CDLL(None)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
m = os.open(f"{d}/mapped", os.O_RDWR | os.O_CREAT); os.ftruncate(m, 5 << 20)
p = libc.mmap(None, 5 << 20, 3, 1, m, 0); os.close(m); os.unlink(f"{d}/mapped"); ctypes.memset(p, 120, 5 << 20)
if len(sys.argv) > 2:  # the main thread exits; a second thread keeps the process and its files
    import threading
    threading.Thread(target=time.sleep, args=(60,)).start()
    print("ready", flush=True)
    libc.pthread_exit(None)
print("ready", flush=True)
time.sleep(60)
`;

describe("deletedOpenFiles", () => {
  let dir: string;
  const procs: ChildProcess[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "deleted-open-"));
  });
  afterAll(() => {
    for (const p of procs) p.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  const holder = async (...extra: string[]) => {
    const p = spawn("/usr/bin/python3", ["-c", HOLDER, dir, ...extra], { stdio: ["ignore", "pipe", "inherit"] });
    procs.push(p);
    await new Promise((r) => p.stdout!.once("data", r));
    await new Promise((r) => setTimeout(r, 100)); // the main thread's exit, when asked
    return p.pid!;
  };
  // Root reads /proc/<pid>/map_files; other users see the descriptors only.
  const mapped = process.getuid?.() === 0 ? 5 : 0;

  it("counts deleted files held open or mapped on the folders' devices, each once; not named files, not memfds", async () => {
    const pid = await holder();
    const devs = new Set([statSync(dir).dev]);
    expect(await deletedOpenFiles([pid, pid, 0, -1, 999_999_999], devs)).toEqual({
      bytes: (3 + mapped) * MiB,
      files: 1 + (mapped ? 1 : 0),
    });
    expect(await deletedOpenFiles([pid], new Set([-1]))).toEqual({ bytes: 0, files: 0 }); // another device
  });

  it("reads another thread's view once the main thread has exited", async () => {
    const pid = await holder("main-thread-exits");
    const r = await deletedOpenFiles([pid], new Set([statSync(dir).dev]));
    expect(r.bytes).toBe((3 + mapped) * MiB);
  });
});

// Issue 28 point 2: a small folder is walked without the thread pool; a large one still asynchronously.
describe("diskUsageSync and the quota's final check", () => {
  const dir = mkdtempSync(join(tmpdir(), "disk-usage-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "small", "code"), { recursive: true });
  writeFileSync(join(dir, "small", "code", "main.py"), "print(1)\n");
  writeFileSync(join(dir, "small", "big.bin"), Buffer.alloc(3 * MiB, 1));
  mkdirSync(join(dir, "many"));
  for (let i = 0; i <= SYNC_WALK_ENTRIES; i++) writeFileSync(join(dir, "many", `${i}.txt`), "x");

  it("sums what diskUsage sums, or gives up past its entry budget", async () => {
    const small = join(dir, "small");
    expect(diskUsageSync([small])).toEqual(await diskUsage([small]));
    expect(diskUsageSync([small])!.files).toBe(3); // code/, code/main.py, big.bin
    const many = join(dir, "many");
    expect(diskUsageSync([many], SYNC_WALK_ENTRIES + 1)).toEqual(await diskUsage([many]));
    expect(diskUsageSync([many])).toBeNull(); // 1,001 entries, over the default budget of 1,000
    expect(diskUsageSync([join(dir, "missing")])).toEqual({ bytes: 0, files: 0 });
  });

  it.each<[string, string, number, string | null]>([
    ["small folder over its bytes", "small", 2 * MiB, "disk quota exceeded: the job folder holds 3.0 MiB, over its 2.0 MiB limit (limits.diskMb); the job was killed"],
    ["small folder within", "small", 4 * MiB, null],
    ["folder past the sync budget, over its files", "many", 4 * MiB, "disk quota exceeded: the job folder holds over 1000 files and folders; the job was killed"],
  ])("stop() reports %s", async (_, sub, maxBytes, message) => {
    const q = watchDiskQuota([join(dir, sub)], { maxBytes, maxFiles: 1000 }, () => {}, { intervalMs: 60_000, pids: () => [] });
    expect(await q.stop()).toBe(message);
  });
});
