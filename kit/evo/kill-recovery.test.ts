import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { probeBwrap } from "../sandbox/index.js";
import { openWorkspace } from "../store/index.js";

// Issue 10 point 9: kill -9 of a run left its job folder and an empty cgroup behind, and could leave an
// execution row naming a node that was never written. Three real processes run evolve with the real
// sandbox: A is killed between the record's write and the node's, B while a program runs, C finishes.
const root = new URL("../..", import.meta.url).pathname;
const noBwrap = probeBwrap();
const CGROUPS = "/sys/fs/cgroup/memory/openmle";

describe.skipIf(!!noBwrap)("a run killed with SIGKILL, then resumed", () => {
  it("sweeps the dead run's job folder and cgroup, and leaves no execution naming a missing node", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evo-kill9-"));
    const ws = join(dir, "ws");
    const jobs = join(dir, "openmle-jobs"); // runSandbox's temporary job folders, under the child's TMPDIR
    const child = (mode: string, resume = "") =>
      spawn(process.execPath, ["--import", "tsx", join(root, "kit/evo/test-helpers/sandbox-kill-child.ts"), ws, mode, resume], {
        cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, TMPDIR: dir },
      });
    /** Resolve when `until(stdout)` holds (then SIGKILL the child), or when it exits by itself. */
    const drive = (c: ChildProcess, until: (out: string) => boolean) =>
      new Promise<string>((resolve, reject) => {
        let out = "";
        let err = "";
        c.stderr!.on("data", (d) => (err += d));
        // Checked on every line and every 50 ms: the job folder may appear after the line that announces it.
        const check = () => { if (until(out) && !c.killed) c.kill("SIGKILL"); };
        const poll = setInterval(check, 50);
        c.stdout!.on("data", (d) => {
          out += d;
          check();
        });
        c.on("exit", (code, sig) => {
          clearInterval(poll);
          if (sig === "SIGKILL" || code === 0) resolve(out);
          else reject(new Error(`child ended ${code}: ${err}`));
        });
      });
    const query = async <T>(sql: string) => {
      const w = await openWorkspace(ws, { readOnly: true });
      try {
        return await w.query<T>(sql);
      } finally {
        w.close();
      }
    };
    const orphans = () => query<{ n: number }>(
      "SELECT count(*) AS n FROM executions e WHERE node_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.run_id = e.run_id AND n.node_id = e.node_id)");

    // 1. A: killed after runSandbox stored step 0's record, before evolve wrote node n0000.
    await drive(child("block"), (out) => out.includes("stored n0000"));
    expect((await query<{ n: number }>("SELECT count(*) AS n FROM nodes"))[0]!.n).toBe(0);
    expect((await orphans())[0]!.n).toBe(1); // the window the README's "one transaction" did not cover

    // 2. B resumes: the orphan is detached; step 0 runs again (new code), then B is killed while step 1 runs.
    const b = child("run", "kill-run");
    const bPid = b.pid!;
    const leaked = () => (existsSync(jobs) ? readdirSync(jobs).filter((f) => f.startsWith(`job-${bPid}-`)) : []);
    await drive(b, (out) => out.includes("exec-start n0001") && leaked().length > 0);
    expect(leaked()).toHaveLength(1);
    const cgroups = () => (existsSync(CGROUPS) ? readdirSync(CGROUPS).filter((f) => f.startsWith(`${bPid}-`)) : []);
    const hadCgroup = cgroups().length > 0;
    expect((await orphans())[0]!.n).toBe(0);

    // 3. C resumes to the end; at its first job it removes what B left.
    const out = await drive(child("run", "kill-run"), () => false);
    expect(out).toContain("done kill-run 2");
    expect(leaked()).toEqual([]);
    if (hadCgroup) expect(cgroups()).toEqual([]);
    expect((await orphans())[0]!.n).toBe(0);
    const rows = await query<{ node_id: string; same: boolean; claims: number }>(
      `SELECT n.node_id, n.execution_id = e.execution_id AS same,
              (SELECT count(*) FROM executions x WHERE x.run_id = n.run_id AND x.node_id = n.node_id) AS claims
       FROM nodes n JOIN executions e ON e.execution_id = n.execution_id ORDER BY n.step`);
    expect(rows).toEqual([{ node_id: "n0000", same: true, claims: 1 }, { node_id: "n0001", same: true, claims: 1 }]);
    // A's record stays as a cache entry of its program, naming no node.
    expect((await query<{ n: number }>("SELECT count(*) AS n FROM executions WHERE run_id = 'kill-run' AND node_id IS NULL"))[0]!.n).toBe(1);
  }, 300_000);
});
