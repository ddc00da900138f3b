import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PythonTimeoutError } from "./errors.js";
import { prepareDeterminism } from "./check-task.js";
import { runPrepare } from "./run-prepare.js";
import type { TaskPackage } from "./types.js";

// Issue 10 point 7: a prepare.py that loops and ignores SIGTERM kept `task check` running past its
// 300 s limit (execFile's timeout sends one SIGTERM to the direct child only). Here the limit is 1 s.
// Since issue 25 prepare runs in the jail (its own pid namespace): the processes are found on the host by
// the mark in their command lines.
const MARK = `prep-timeout-${process.pid}-${Date.now()}`;
const HOSTILE_PREPARE = `
import os, signal, subprocess, sys, time
def prepare(raw, public, private):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = subprocess.Popen([sys.executable, "-c",
        "import signal, time\\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\\nwhile True: time.sleep(0.05) # ${MARK}"])
    (public / "started").write_text("1")
    while True:
        time.sleep(0.05)
`;

/** Host pids of live processes whose command line holds the mark. */
function marked(): number[] {
  return readdirSync("/proc").filter((p) => /^\d+$/.test(p)).map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(MARK) && alive(pid);
    } catch {
      return false;
    }
  });
}

function hostilePackage(): TaskPackage {
  const dir = mkdtempSync(join(tmpdir(), "openmle-prep-"));
  mkdirSync(join(dir, "utils"));
  mkdirSync(join(dir, "raw"));
  mkdirSync(join(dir, "data", "public"), { recursive: true });
  writeFileSync(join(dir, "utils", "prepare.py"), HOSTILE_PREPARE);
  return { dir, publicDir: join(dir, "data", "public"), privateDir: join(dir, "data", "private"), description: "", meta: { id: "hostile" } as TaskPackage["meta"] };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8")); // a zombie is dead
  } catch {
    return false;
  }
};

describe("prepare.py past its time limit", () => {
  it("is killed with its children (SIGTERM ignored, SIGKILL after the grace period)", async () => {
    const task = hostilePackage();
    const t0 = Date.now();
    const err = await runPrepare(join(task.dir, "utils", "prepare.py"), join(task.dir, "raw"), join(task.dir, "o", "public"), join(task.dir, "o", "private"), { timeoutMs: 4000 }).catch((e) => e);
    const took = Date.now() - t0;
    expect(err).toBeInstanceOf(PythonTimeoutError);
    expect(err.message).toMatch(/ran past its 4 s limit/);
    expect(took).toBeLessThan(15_000); // 4 s limit + 2 s grace, with room for a loaded machine
    expect(existsSync(join(task.dir, "o", "public", "started"))).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(marked()).toEqual([]);
  });

  it("fails the determinism check of task check instead of hanging it", async () => {
    const task = hostilePackage();
    const [check] = await prepareDeterminism(task, { prepareTimeoutMs: 1000 });
    expect(check).toMatchObject({ name: "prepare_deterministic", status: "fail", evidence: { limitS: 1 } });
    expect(check!.message).toMatch(/ran past its 1 s limit and was killed/);
    expect(marked()).toEqual([]);
  });
});
