// Escapes from inside a job: the adversarial programs of kit/sandbox/security.test.ts (issue 4)
// and issue 10.1 (host privileges) and 10.4 (disk), on every executor.
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diskUsage, runSandbox, type Executor } from "../../../kit/sandbox/index.js";
import { ADVERSARIAL, copyTask, hostPidsWith, lastJsonLine } from "../../../kit/sandbox/test-helpers.js";
import type { Attempt, AttemptContext } from "../attempt.js";

const limits = { timeoutS: 30, memoryMb: 512, cpus: 1 };
const run = (ctx: AttemptContext, ex: Executor | null, code: string, extra: object = {}) =>
  runSandbox({ task: ctx.task, code, limits, executor: ex ?? undefined, jobsDir: join(ctx.dir, "jobs"), ...extra });
const report = (stdout: string): Record<string, unknown> => {
  try {
    return lastJsonLine(stdout);
  } catch {
    return {};
  }
};

export const attempts: Attempt[] = [
  {
    id: "read-private", source: "issue 4 (security.test.ts)", what: "read data/private by path, /proc/1/root and a walk of /", perExecutor: true,
    async run(ctx, ex) {
      const r = await run(ctx, ex, ADVERSARIAL.readPrivate(join(ctx.task.privateDir, "test_answer.csv")));
      const found = report(r.stdoutTail).found as unknown[] | undefined;
      return { held: Array.isArray(found) && found.length === 0, detail: `found ${JSON.stringify(found ?? r.status)}` };
    },
  },
  {
    id: "symlink-submission", source: "issue 4 (security.test.ts)", what: "submission.csv as a link to the answers or /etc/passwd", perExecutor: true,
    async run(ctx, ex) {
      const out: string[] = [];
      for (const target of [join(ctx.task.privateDir, "test_answer.csv"), "/etc/passwd"]) {
        const r = await run(ctx, ex, `import os\nos.symlink(${JSON.stringify(target)}, "submission.csv")\nprint("Final Validation Score: 1.0")\n`);
        if (r.testScore !== null || `${r.traceback}`.includes("root:")) out.push(target);
      }
      return { held: out.length === 0, detail: out.length ? `scored through ${out.join(", ")}` : "scoring_failure, nothing read" };
    },
  },
  {
    id: "network", source: "issue 4 (security.test.ts)", what: "connect to the host's 127.0.0.1, resolve DNS", perExecutor: true,
    async run(ctx, ex) {
      const before = ctx.canaryConnections();
      const rep = report((await run(ctx, ex, ADVERSARIAL.network(ctx.canaryPort))).stdoutTail);
      const held = rep.loopback !== "connected" && rep.dns !== "resolved" && ctx.canaryConnections() === before;
      return { held, detail: `loopback ${rep.loopback}, dns ${rep.dns}` };
    },
  },
  {
    id: "leave-processes", source: "issue 4 (security.test.ts)", what: "a sleeping child and a double-forked daemon outlive the job", perExecutor: true,
    async run(ctx, ex) {
      const token = `benchtok${Date.now()}`;
      await run(ctx, ex, ADVERSARIAL.leaveProcesses(token));
      await new Promise((r) => setTimeout(r, 2000));
      const alive = hostPidsWith(token);
      return { held: alive.length === 0, detail: `${alive.length} processes left` };
    },
  },
  {
    id: "memory-bomb", source: "issue 4 (security.test.ts)", what: "allocate 10 GB under a 256 MiB cap", perExecutor: true,
    async run(ctx, ex) {
      const r = await run(ctx, ex, ADVERSARIAL.memoryBomb(), { limits: { ...limits, memoryMb: 256 } });
      return { held: !r.stdoutTail.includes("allocated_mb"), detail: `${r.status} / ${r.errorSignature}` };
    },
  },
  {
    id: "write-outside", source: "issue 4 (security.test.ts)", what: "write /usr, /etc, /, the public data, the task folder, the host's /tmp", perExecutor: true,
    async run(ctx, ex) {
      const hostTmp = join(tmpdir(), `bench-escape-${Date.now()}`);
      const targets = ["/usr/pwned", "/etc/pwned", "/data/pwned", join(ctx.task.dir, "pwned"), join(ctx.task.publicDir, "pwned"), hostTmp, "/pwned"];
      const before = readFileSync(join(ctx.task.publicDir, "train.csv"), "utf8");
      await run(ctx, ex, ADVERSARIAL.writeOutside(targets));
      const landed = [hostTmp, join(ctx.task.dir, "pwned"), join(ctx.task.publicDir, "pwned"), "/usr/pwned", "/etc/pwned", "/pwned"].filter((t) => existsSync(t));
      const changed = readFileSync(join(ctx.task.publicDir, "train.csv"), "utf8") !== before;
      return { held: landed.length === 0 && !changed, detail: landed.length ? `wrote ${landed.join(", ")}` : "nothing landed outside /workspace" };
    },
  },
  {
    id: "host-privileges", source: "issue 10.1", what: "write /proc/sys knobs, read a root-only (0600) file, run as host uid 0", perExecutor: true,
    async run(ctx, ex) {
      const own = copyTask(join(ctx.dir, `secret-task-${Date.now()}`), {}, ctx.meta);
      writeFileSync(join(own, "data", "public", "root-only.txt"), "secret");
      chmodSync(join(own, "data", "public", "root-only.txt"), 0o600);
      const rootOnly = process.getuid?.() === 0 ? ["/data/root-only.txt", "/etc/shadow"] : ["/etc/shadow"];
      const task = { ...ctx.task, dir: own, publicDir: join(own, "data", "public") };
      const r = await runSandbox({ task, code: ADVERSARIAL.hostPrivileges(rootOnly), limits, executor: ex ?? undefined, jobsDir: join(ctx.dir, "jobs") });
      const rep = report(r.stdoutTail);
      const uid = r.workDir && existsSync(join(r.workDir, "owned-by-job.txt")) ? statSync(join(r.workDir, "owned-by-job.txt")).uid : -1;
      const writable = (rep.writable as string[] | undefined) ?? ["?"];
      const readable = (rep.readable as string[] | undefined) ?? ["?"];
      const held = writable.length === 0 && readable.length === 0 && uid > 0;
      return { held, detail: `writable ${writable.length ? writable.join(" ") : 0}, root-only files read ${readable.length}, host uid ${uid}` };
    },
  },
  {
    id: "fill-disk", source: "issue 10.4", what: "write 2 GiB into the job folder under a 64 MiB quota", perExecutor: true,
    async run(ctx, ex) {
      const fill = 'chunk = b"x" * (1 << 20)\nfor i in range(2048):\n    with open(f"fill-{i // 16}.bin", "ab") as f:\n        f.write(chunk)\nprint("wrote 2 GiB")\n';
      const r = await run(ctx, ex, fill, { limits: { ...limits, diskMb: 64 } });
      const left = r.workDir ? (await diskUsage([r.workDir])).bytes / 2 ** 20 : NaN;
      const held = r.errorSignature === "disk_quota" && !r.stdoutTail.includes("wrote 2 GiB");
      return { held, detail: `${r.status} / ${r.errorSignature} after ${r.wallS.toFixed(1)} s, ${left.toFixed(0)} MiB in the folder when killed` };
    },
  },
  {
    id: "huge-submission", source: "issue 10.4", what: "an 400 MiB (sparse) and a 100,000-column submission.csv", perExecutor: true,
    async run(ctx, ex) {
      const big = 'f = open("submission.csv", "w"); f.write("id,label\\n"); f.truncate(400 * 1024 * 1024)\n';
      const wide = 'open("submission.csv", "w").write(",".join(f"c{i}" for i in range(100000)) + "\\n" + ",".join("0" * 100000) + "\\n")\n';
      const sigs: string[] = [];
      const t0 = performance.now();
      for (const code of [big, wide]) sigs.push(String((await run(ctx, ex, code)).errorSignature));
      return { held: sigs.every((s) => s === "submission_too_large"), detail: `${sigs.join(", ")} in ${((performance.now() - t0) / 1000).toFixed(1)} s` };
    },
  },
];
