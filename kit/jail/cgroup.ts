import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pidAlive } from "../util/kill-tree.js";

const ROOT = "/sys/fs/cgroup";
const CONTROLLERS = ["memory", "cpuacct", "pids"] as const;

/**
 * A per-job cgroup (v1 hierarchies memory, cpuacct, pids, as on hybrid hosts): hard memory cap
 * (RAM + swap), a pid limit against fork bombs, CPU time and peak memory accounting, and a
 * sweep that kills whatever is left in it.
 */
export class JobCgroup {
  private constructor(readonly dirs: Record<(typeof CONTROLLERS)[number], string>) {}

  /** Create one, or return null when this host offers no writable v1 memory hierarchy. */
  static create(name: string, memoryMb: number, maxPids = 4096): JobCgroup | null {
    if (!JobCgroup.available()) return null;
    const dirs = Object.fromEntries(CONTROLLERS.map((c) => [c, join(ROOT, c, "openmle", name)])) as JobCgroup["dirs"];
    try {
      for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
      const bytes = String(Math.round(memoryMb * 1024 * 1024));
      writeFileSync(join(dirs.memory, "memory.limit_in_bytes"), bytes);
      try {
        writeFileSync(join(dirs.memory, "memory.memsw.limit_in_bytes"), bytes);
      } catch {
        /* no swap accounting: the RAM limit alone still holds */
      }
      writeFileSync(join(dirs.pids, "pids.max"), String(maxPids));
      return new JobCgroup(dirs);
    } catch {
      new JobCgroup(dirs).remove();
      return null;
    }
  }

  private static cached: boolean | undefined;
  static available(): boolean {
    if (JobCgroup.cached === undefined) {
      JobCgroup.cached = CONTROLLERS.every((c) => existsSync(join(ROOT, c, "cgroup.procs")));
      if (JobCgroup.cached) {
        try {
          mkdirSync(join(ROOT, "memory", "openmle"), { recursive: true });
          void JobCgroup.sweepStale();
        } catch {
          JobCgroup.cached = false;
        }
      }
    }
    return JobCgroup.cached;
  }

  /** A shell prologue that moves the shell (and so everything it execs) into the cgroup. */
  enterScript(): string {
    return CONTROLLERS.map((c) => `echo $$ > ${join(this.dirs[c], "cgroup.procs")}`).join(" && ");
  }

  /** Move a running process (and so everything it starts later) into this cgroup (needs root, as create). */
  add(pid: number): void {
    for (const c of CONTROLLERS) writeFileSync(join(this.dirs[c], "cgroup.procs"), String(pid));
  }

  pids(): number[] {
    try {
      return readFileSync(join(this.dirs.pids, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }

  /** SIGKILL everything still inside; repeat until empty (new forks are caught on the next pass). */
  async killAll(): Promise<number> {
    let killed = 0;
    for (let pass = 0; pass < 50; pass++) {
      const pids = this.pids();
      if (pids.length === 0) return killed;
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
          killed++;
        } catch {
          /* already gone */
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return killed;
  }

  stats(): { cpuS: number; peakMemMb: number; oomKills: number } {
    const read = (f: string) => {
      try {
        return readFileSync(f, "utf8");
      } catch {
        return "";
      }
    };
    const cpuNs = Number(read(join(this.dirs.cpuacct, "cpuacct.usage")).trim() || 0);
    const peak = Number(read(join(this.dirs.memory, "memory.max_usage_in_bytes")).trim() || 0);
    const oom = /oom_kill (\d+)/.exec(read(join(this.dirs.memory, "memory.oom_control")));
    return { cpuS: cpuNs / 1e9, peakMemMb: peak / 1024 / 1024, oomKills: oom ? Number(oom[1]) : 0 };
  }

  remove(): void {
    for (const d of Object.values(this.dirs)) {
      // Empty by now (killAll ran); a failure leaves an empty folder that sweepStale removes later.
      try {
        if (existsSync(d)) rmdirSync(d);
      } catch {
        /* still busy */
      }
    }
  }

  /**
   * Remove per-job cgroups left by processes killed mid-job (a SIGKILLed run or queue worker never
   * reaches `remove`). A cgroup is named `<pid of the process that made it>-<uuid>`: when that pid
   * is gone, whatever still runs inside is killed and the cgroup removed. Cgroups named without a
   * pid (older kits) go only when empty and older than 10 minutes. Cgroups of live processes stay.
   */
  static async sweepStale(maxAgeMs = 10 * 60_000): Promise<string[]> {
    const removed: string[] = [];
    const names = new Set<string>();
    for (const c of CONTROLLERS) {
      try {
        for (const e of readdirSync(join(ROOT, c, "openmle"), { withFileTypes: true }))
          if (e.isDirectory()) names.add(e.name);
      } catch {
        /* no hierarchy */
      }
    }
    for (const n of names) {
      const owner = /^(\d+)-[0-9a-f]{8}-/.exec(n);
      const dirs = Object.fromEntries(CONTROLLERS.map((c) => [c, join(ROOT, c, "openmle", n)])) as JobCgroup["dirs"];
      const cg = new JobCgroup(dirs);
      if (owner) {
        if (Number(owner[1]) === process.pid || pidAlive(Number(owner[1]))) continue;
        await cg.killAll();
      } else {
        try {
          const d = dirs.memory;
          if (
            Date.now() - statSync(d).mtimeMs <= maxAgeMs ||
            readFileSync(join(d, "cgroup.procs"), "utf8").trim() !== ""
          )
            continue;
        } catch {
          continue;
        }
      }
      cg.remove();
      if (!Object.values(dirs).some((d) => existsSync(d))) removed.push(n);
    }
    return removed;
  }
}
