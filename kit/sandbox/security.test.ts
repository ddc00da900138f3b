// Adversarial programs on the local executor: each tries one escape (spec issue 4, Security).
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, type TaskPackage } from "../gym/index.js";
import { probeBwrap } from "./local-executor.js";
import { runSandbox } from "./run-sandbox.js";
import { ADVERSARIAL, hostPidsWith, TINY_TASK_DIR, lastJsonLine, startCanary } from "./test-helpers.js";
import { LEAK_PROGRAMS } from "./warm-leak-programs.js";

const noBwrap = probeBwrap();
if (noBwrap) console.warn(`SKIP local security tests: ${noBwrap}`);

describe.skipIf(!!noBwrap)("local executor security", () => {
  let task: TaskPackage;
  let jobsDir: string;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  beforeAll(async () => {
    task = await loadTask(TINY_TASK_DIR);
    jobsDir = mkdtempSync(join(tmpdir(), "sbx-sec-"));
    canary = await startCanary();
  });
  afterAll(() => {
    canary?.close();
    rmSync(jobsDir, { recursive: true, force: true });
  });
  const limits = { timeoutS: 20, memoryMb: 512, cpus: 1 };
  const report = lastJsonLine;

  it("cannot read data/private (not mounted; not reachable by path, walk or /proc)", async () => {
    const answers = join(task.privateDir, "test_answer.csv");
    const r = await runSandbox({ task, code: ADVERSARIAL.readPrivate(answers), limits });
    expect(r.exitCode).toBe(0);
    expect(report(r.stdoutTail)).toEqual({ found: [] });
  });

  it("cannot make the host-side scorer read the answers through a symlinked submission", async () => {
    const answers = join(task.privateDir, "test_answer.csv");
    for (const target of [answers, "/etc/passwd"]) {
      const code = `import os\nos.symlink(${JSON.stringify(target)}, "submission.csv")\nprint("Final Validation Score: 1.0")\n`;
      const r = await runSandbox({ task, code, limits });
      expect(r.status).toBe("scoring_failure");
      expect(r.testScore).toBeNull();
      expect(`${r.traceback ?? ""}${r.stderrTail}`).not.toContain("root:");
    }
  });

  it("cannot use the kernel keyrings, so cannot fill the uid's key quota for another job (issue 59)", async () => {
    const r = await runSandbox({ task, code: LEAK_PROGRAMS.fillKeyQuota(0), limits });
    expect(report(r.stdoutTail)).toEqual({ added: 0, stopped: "Operation not permitted" });
  });

  it("cannot reach the network: not even the host's 127.0.0.1, no DNS, only its own loopback", async () => {
    const r = await runSandbox({ task, code: ADVERSARIAL.network(canary.port), limits });
    const rep = report(r.stdoutTail);
    expect(rep.loopback).toBe("ConnectionRefusedError");
    expect(rep.dns).toBe("gaierror");
    expect(rep.interfaces).toEqual(["lo"]);
    expect(canary.connections()).toBe(0);
  });

  it("leaves no process behind: a sleeping child and a double-forked daemon die with the job", async () => {
    const token = `sectok${Date.now()}`;
    const r = await runSandbox({ task, code: ADVERSARIAL.leaveProcesses(token), limits, jobsDir });
    expect(report(r.stdoutTail)).toEqual({ started: true });
    expect(hostPidsWith(token)).toEqual([]);
    await new Promise((res) => setTimeout(res, 2000));
    expect(hostPidsWith(token)).toEqual([]);
    expect(readdirSync(r.workDir!).filter((f) => f.startsWith("alive"))).toEqual([]);
  });

  it("cannot exhaust host memory: the cap kills it and the record says memory_error", async () => {
    const r = await runSandbox({ task, code: ADVERSARIAL.memoryBomb(), limits: { ...limits, memoryMb: 256 } });
    expect([r.status, r.errorSignature]).toEqual(["runtime_error", "memory_error"]);
    expect(r.stdoutTail).not.toContain("allocated_mb");
    if (r.peakMemMb !== null) expect(r.peakMemMb).toBeLessThanOrEqual(257);
  });

  it("is an unprivileged user on the host: no /proc/sys knob, no root-only file, a non-zero host uid", async () => {
    // A copy of the task whose public data holds a root-only file (0600), visible at /data. It lies
    // under a 0700 folder, so the sandbox user reaches it through the staging mounts.
    const own = join(jobsDir, "task-with-secret");
    cpSync(task.dir, own, { recursive: true });
    writeFileSync(join(own, "data", "public", "root-only.txt"), "secret");
    chmodSync(join(own, "data", "public", "root-only.txt"), 0o600);
    const rootOnly = process.getuid?.() === 0 ? ["/data/root-only.txt", "/etc/shadow"] : ["/etc/shadow"];
    const r = await runSandbox({ task: { ...task, dir: own, publicDir: join(own, "data", "public") }, code: ADVERSARIAL.hostPrivileges(rootOnly), limits, jobsDir });
    const rep = report(r.stdoutTail);
    expect(rep.writable).toEqual([]);
    expect(rep.readable).toEqual([]);
    expect(rep.sysfs).toBe(false);
    expect(statSync(join(r.workDir!, "owned-by-job.txt")).uid).not.toBe(0);
  });

  it("cannot write outside its workspace (system, public data, task folder, host /tmp)", async () => {
    const hostTmp = join(tmpdir(), `sbx-escape-${Date.now()}`);
    const targets = ["/usr/pwned", "/etc/pwned", "/data/pwned", "/data/train.csv", join(task.dir, "pwned"), join(task.publicDir, "pwned"), hostTmp, "/pwned"];
    const before = readFileSync(join(task.publicDir, "train.csv"), "utf8");
    const r = await runSandbox({ task, code: ADVERSARIAL.writeOutside(targets), limits, jobsDir });
    const rep = report(r.stdoutTail);
    // The sandbox's /tmp is private: a write there succeeds but never reaches the host's /tmp.
    for (const t of targets.filter((x) => x !== hostTmp)) expect(rep[t], t).not.toBe("written");
    for (const t of [hostTmp, join(task.dir, "pwned"), join(task.publicDir, "pwned"), "/usr/pwned", "/etc/pwned", "/pwned"]) expect(existsSync(t), t).toBe(false);
    expect(readFileSync(join(task.publicDir, "train.csv"), "utf8")).toBe(before);
    expect(existsSync(join(tmpdir(), "inside-tmp"))).toBe(false);
    expect(r.artifacts).toContain("inside-workspace.txt");
  });
});
