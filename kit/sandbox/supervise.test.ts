import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { JobCgroup } from "./cgroup.js";
import { limitedCommand } from "./limited-command.js";
import { gateFd, supervise } from "./supervise.js";

const dir = mkdtempSync(join(tmpdir(), "openmle-gate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gated = (after: string) => ["-c", `read _ <&${gateFd()} && exec ${gateFd()}<&- && ${after}`];

describe("supervise: gated start", () => {
  it("runs the command only after gate(pid) returned, with the child's pid", async () => {
    const marker = join(dir, "admitted");
    let seen = 0;
    const r = await supervise({ command: "/bin/sh", args: gated(`cat ${marker}`), timeoutS: 10, outputCapBytes: 1 << 16,
      gate: (pid) => { seen = pid; writeFileSync(marker, `pid ${pid}`); } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`pid ${seen}`);
    expect(seen).toBeGreaterThan(0);
  });

  it("runs nothing when gate throws, and reports why", async () => {
    const ran = join(dir, "ran");
    const r = await supervise({ command: "/bin/sh", args: gated(`touch ${ran}`), timeoutS: 10, outputCapBytes: 1 << 16,
      gate: () => { throw new Error("no cgroup for you"); } });
    expect(r.exitCode).not.toBe(0);
    expect(r.spawnError).toMatch(/no cgroup for you/);
    expect(existsSync(ran)).toBe(false);
  });

  it.skipIf(!JobCgroup.available())("the gated shell is in the job's cgroup before the command starts, and the gate fd is closed", async () => {
    const cg = JobCgroup.create(`${process.pid}-gate-test`, 256)!;
    try {
      const [cmd, args] = limitedCommand(cg, { fsizeBytes: 1 << 20, asBytes: 1 << 30 }, ["/bin/sh", "-c", `cat /proc/self/cgroup; [ -e /proc/$$/fd/${gateFd()} ] && echo "gate fd open" || echo "gate fd closed"`], { gateFd: gateFd() });
      const r = await supervise({ command: cmd, args, timeoutS: 10, outputCapBytes: 1 << 16, gate: (pid) => cg.admit(pid) });
      expect(r.exitCode).toBe(0);
      const name = cg.dirs.memory.split("/sys/fs/cgroup/memory")[1]!;
      for (const c of ["memory", "cpuacct", "pids"]) expect(r.stdout).toMatch(new RegExp(`:${c}[^:\\n]*:${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n`));
      expect(r.stdout).toContain("gate fd closed");
    } finally {
      await cg.killAll();
      cg.remove();
    }
  });
});
