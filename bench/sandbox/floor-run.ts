// The isolation's own floor (issue 28): one trivial program through the same process chain and cgroup
// placement as the local executor, and nothing of the kit around it.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TaskPackage } from "../../kit/gym/index.js";
import { sandboxEnv, SANDBOX_DATA_DIR, SANDBOX_WORKDIR, type SandboxLimits } from "../../kit/sandbox/index.js";
import { bwrapArgs } from "../../kit/sandbox/bwrap-args.js";
import {
  dropPrivilegesPrefix,
  giveTree,
  interpreterPrefix,
  JobCgroup,
  limitedCommand,
  sandboxHostUser,
  sandboxPython,
} from "../../kit/jail/index.js";

/**
 * The floor: a fresh per-job cgroup (JobCgroup.create, same memory cap and pid limit), the one `/bin/sh`
 * that joins it and sets RLIMIT_FSIZE (limitedCommand), `setpriv` to the sandbox user when root
 * (dropPrivilegesPrefix), then bubblewrap with the executor's arguments (bwrapArgs: same namespaces,
 * mounts, environment, interpreter); spawned in its own process group like supervise does; the cgroup
 * removed after. The job folder is made and given to the sandbox user once, beforehand (not timed).
 * Left out, as the kit's own steps: idempotency key, job folder, chown, reachability checks, disk-quota
 * watch, output capture, kill sweep, stats, classification, artifact listing, clean-up.
 */
export function isolationFloor(task: TaskPackage, limits: SandboxLimits, program: string) {
  const user = sandboxHostUser();
  const python = sandboxPython();
  const dir = mkdtempSync(join(tmpdir(), "bench-sbx-floor-"));
  mkdirSync(join(dir, "code"));
  writeFileSync(join(dir, "code", "main.py"), program);
  if (user) giveTree(dir, user);
  const env = sandboxEnv(limits, SANDBOX_DATA_DIR, SANDBOX_WORKDIR);
  const command = [
    ...(user ? dropPrivilegesPrefix(user) : []),
    "bwrap",
    ...bwrapArgs({
      jobDir: dir,
      publicDir: task.publicDir,
      env,
      command: [python, "code/main.py"],
      readOnlyDirs: [interpreterPrefix(python)].filter((d): d is string => d !== null),
    }),
  ];
  const fsizeBytes = Math.round(limits.diskMb * 1024 * 1024);
  const asBytes = Math.round(limits.memoryMb * 1024 * 1024);
  /**
   * One run: its wall time in ms (cgroup made, chain run to the close of its pipes, cgroup removed), and
   * apart from it the kit's kill sweep of the cgroup right after the exit (`killAll`, not in `ms`).
   */
  const run = (): Promise<{ ms: number; sweepMs: number }> => {
    const t0 = performance.now();
    const cg = JobCgroup.create(`${process.pid}-${randomUUID()}`, limits.memoryMb);
    const [cmd, args] = limitedCommand(cg, { fsizeBytes, asBytes }, command);
    return new Promise((resolve, reject) => {
      const c = spawn(cmd, args, {
        cwd: dir,
        env: { PATH: "/usr/bin:/bin" },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      let out = "";
      let err = "";
      c.stdout.on("data", (d: Buffer) => (out += d.toString()));
      c.stderr.on("data", (d: Buffer) => (err += d.toString()));
      c.on("error", reject);
      c.on("close", (code) => {
        if (code !== 0 || !out.includes("Final Validation Score"))
          return reject(new Error(`the floor's chain exited ${code}: ${err.slice(0, 500)}`));
        const t1 = performance.now();
        void (cg ? cg.killAll() : Promise.resolve(0)).then(() => {
          const t2 = performance.now();
          cg?.remove();
          resolve({ ms: performance.now() - t0 - (t2 - t1), sweepMs: t2 - t1 });
        });
      });
    });
  };
  return { dir, user, run, chained: cgChain(command) };
}

/** The chain's first words, for the printout (e.g. `sh (cgroup, ulimit) → setpriv → bwrap`). */
function cgChain(command: readonly string[]): string {
  const words = [JobCgroup.available() ? "sh (joins cgroup, ulimit -f)" : "prlimit"];
  if (command[0] === "setpriv") words.push("setpriv");
  words.push("bwrap", "python3");
  return words.join(" → ");
}
