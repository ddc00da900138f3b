// Issue 25, breaks 5 and 6: a submission header whose columns the cap miscounts (a stray quote; a BOM at
// pandas' 256 KiB read-chunk boundary), and deleted files a job keeps open (plain, mapped, held by a
// thread after the main thread exited) under a 64 MiB disk quota.
import { join } from "node:path";
import { runSandbox, type Executor } from "../../../kit/sandbox/index.js";
import { ADVERSARIAL, withDiskRise } from "../../../kit/sandbox/test-helpers.js";
import type { Attempt, AttemptContext } from "../attempt.js";

const limits = { timeoutS: 60, memoryMb: 1024, cpus: 1 };
const run = (ctx: AttemptContext, ex: Executor | null, code: string, diskMb?: number) =>
  runSandbox({ task: ctx.task, code, limits: { ...limits, ...(diskMb ? { diskMb } : {}) }, executor: ex ?? undefined, jobsDir: join(ctx.dir, "jobs") });

/** A program that writes `header` (Python expression) and one matching row as submission.csv. */
const submission = (header: string) => `h = ${header}\nopen("submission.csv", "w", newline="").write(h + "\\n" + ",".join("0" * (h.count(",") + 1)) + "\\n")\n`;

const columnsAttempt = (id: string, what: string, header: string): Attempt => ({
  id, source: "issue 25.5", what, perExecutor: false,
  async run(ctx) {
    const r = await run(ctx, null, submission(header));
    const held = r.errorSignature === "submission_too_large" && (r.scoringS ?? Infinity) < 2;
    return { held, detail: `${r.status}/${r.errorSignature} after ${(r.scoringS ?? 0).toFixed(2)} s of scoring: ${(r.traceback ?? "").slice(0, 50)}` };
  },
});

/** Ten 60 MiB files held by the program of `code`: killed with the disk-quota message, the host disk rise bounded. */
const heldAttempt = (id: string, what: string, code: string): Attempt => ({
  id, source: "issue 25.6", what, perExecutor: true,
  async run(ctx, ex) {
    const { result: r, riseMiB } = await withDiskRise(ctx.dir, () => run(ctx, ex, code, 64));
    const held = r.errorSignature === "disk_quota" && /deleted files/.test(r.traceback ?? "") && riseMiB < 400;
    return { held, detail: `${r.errorSignature}, host disk rose ${riseMiB.toFixed(0)} MiB (600 when uncounted)` };
  },
});

const HOLD_MAPPED = `import ctypes, os, time
libc = ctypes.CDLL(None)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
for i in range(10):
    fd = os.open(f"m{i}", os.O_RDWR | os.O_CREAT); os.unlink(f"m{i}"); os.ftruncate(fd, 60 << 20)
    p = libc.mmap(None, 60 << 20, 3, 1, fd, 0); os.close(fd); ctypes.memset(p, 120, 60 << 20)
    time.sleep(0.3)
time.sleep(5)
`;

const HOLD_AFTER_MAIN_EXIT = `import ctypes, threading, time
def hold():
${ADVERSARIAL.holdDeletedFiles(10, 60, 0.3).replace(/^(?=.)/gm, "    ")}
threading.Thread(target=hold).start()
ctypes.CDLL(None).pthread_exit(None)
`;

export const attempts: Attempt[] = [
  columnsAttempt("stray-quote-columns", "a 100,001-column header starting id\" (the old count saw one quoted field)", `'id"' + ",c" * 100000`),
  columnsAttempt(
    "chunk-bom-columns",
    "a BOM at byte 262,144 of the header: pandas drops it, so a quote opens a field and a newline inside it does not end the 100,002-column header",
    `"a" * 262143 + ',\\ufeff"x\\ny"' + ",z" * 100000`,
  ),
  heldAttempt("deleted-open-files", "ten 60 MiB files unlinked and kept open under a 64 MiB quota", ADVERSARIAL.holdDeletedFiles(10, 60, 0.3)),
  heldAttempt("deleted-mapped-files", "ten 60 MiB files mapped, closed and unlinked (only the mapping holds them)", HOLD_MAPPED),
  heldAttempt("deleted-files-main-thread-exit", "the files held by a thread after the main thread exited (/proc/<pid>/fd is empty)", HOLD_AFTER_MAIN_EXIT),
];
