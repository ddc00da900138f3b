// Warm start's isolation (issue 28): a program forked from a zygote can do nothing to the zygote, its
// siblings or the programs after it, and every cap of a cold start holds.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, type TaskPackage } from "../gym/index.js";
import { probeBwrap } from "./local-executor.js";
import { runSandbox } from "./run-sandbox.js";
import { ADVERSARIAL, hostPidsWith, lastJsonLine, startCanary, TINY_TASK_DIR } from "./test-helpers.js";
import { WarmExecutor } from "./warm-executor.js";
import { LEAK_PROGRAMS, leakMarker } from "./warm-leak-programs.js";
import { WARM_ADVERSARIAL } from "./warm-programs.js";

const noBwrap = probeBwrap();
const EPERM = "Operation not permitted";
if (noBwrap) console.warn(`SKIP warm start security tests: ${noBwrap}`);

describe.skipIf(!!noBwrap)("warm start isolation", () => {
  let task: TaskPackage;
  let jobsDir: string;
  let warm: WarmExecutor;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  const limits = { timeoutS: 30, memoryMb: 512, cpus: 1 };
  const run = (code: string, extra: object = {}) =>
    runSandbox({ task, code, limits, executor: warm, jobsDir, rerun: true, ...extra });
  beforeAll(async () => {
    task = await loadTask(TINY_TASK_DIR);
    jobsDir = mkdtempSync(join(tmpdir(), "warm-sec-"));
    warm = new WarmExecutor({ onWarning: (m) => console.warn(m) });
    canary = await startCanary();
  });
  afterAll(async () => {
    canary?.close();
    await warm?.close();
    rmSync(jobsDir, { recursive: true, force: true });
  });

  it("cannot see another job's folder, nor data/private", async () => {
    mkdirSync(join(jobsDir, "sibling-job"), { recursive: true });
    writeFileSync(join(jobsDir, "sibling-job", "sibling-secret.txt"), "secret");
    const r = await run(WARM_ADVERSARIAL.readSibling("sibling-job", "sibling-secret.txt"));
    expect(lastJsonLine(r.stdoutTail)).toEqual({ found: [] });
    const p = await run(ADVERSARIAL.readPrivate(join(task.privateDir, "test_answer.csv")));
    expect(lastJsonLine(p.stdoutTail)).toEqual({ found: [] });
  });

  it("cannot signal or ptrace the zygote: it sees only its own processes", async () => {
    await run("print(1)");
    const before = warm.zygotePids();
    const r = await run(WARM_ADVERSARIAL.attackZygote());
    const rep = lastJsonLine(r.stdoutTail);
    expect(rep).toMatchObject({ pid: 1, visible: [1], signalled: [], traced: [] });
    expect(warm.zygotePids()).toEqual(before);
    expect((await run("print('after')")).stdoutTail).toBe("after\n");
    expect(warm.zygotePids()).toEqual(before);
  });

  it("cannot poison the modules, files or /tmp of the program after it", async () => {
    const a = await run(WARM_ADVERSARIAL.poisonModules());
    expect(lastJsonLine(a.stdoutTail)).toEqual({ wrote: [] });
    const b = await run(WARM_ADVERSARIAL.checkModules());
    expect(lastJsonLine(b.stdoutTail)).toEqual({ mean: 1.5, pandas: "pandas", open_orig: false, tmp: [] });
  });

  it("cannot undo its isolation: no namespace or mount call, no capability, the sandbox's uid", async () => {
    const rep = lastJsonLine((await run(WARM_ADVERSARIAL.namespaceCalls())).stdoutTail);
    for (const k of ["unshare_user", "unshare_mount", "unshare_net", "unshare_pid", "mount", "setns"])
      expect(rep[k], k).toBe("Operation not permitted");
    expect(rep.clone3).toBe("Function not implemented");
    expect(rep.caps).toEqual(Array(4).fill("0000000000000000"));
    expect(rep.no_new_privs).toEqual(["1"]);
    expect(rep.uid).toBe(1000);
  });

  it("finds no byte of an earlier or a running program's code, output, files or keys in its memory (issue 59)", async () => {
    const done = leakMarker();
    const left = await run(LEAK_PROGRAMS.leave(done.marker));
    expect(lastJsonLine(left.stdoutTail).keys).toEqual({ session: EPERM, user: EPERM, persistent: EPERM });
    const after = lastJsonLine((await run(LEAK_PROGRAMS.scan(done.halves))).stdoutTail);
    expect(after).toMatchObject({ hits: 0, keys: { session: EPERM, user: EPERM, persistent: EPERM } });
    expect(after.scannedMb).toBeGreaterThan(50); // the zygote's whole heap and libraries were read
    const running = leakMarker();
    const holding = run(LEAK_PROGRAMS.leave(running.marker, 3));
    await new Promise((res) => setTimeout(res, 1500)); // its output is out by now (a warm start takes ~0.2 s)
    expect(lastJsonLine((await run(LEAK_PROGRAMS.scan(running.halves))).stdoutTail).hits).toBe(0);
    expect((await holding).stdoutTail).toContain(running.marker);
  });

  it("leaves no thread, child or daemon behind", async () => {
    const token = `warmtok${Date.now()}`;
    const r = await run(WARM_ADVERSARIAL.leaveWork(token));
    expect(lastJsonLine(r.stdoutTail)).toEqual({ started: true });
    await new Promise((res) => setTimeout(res, 2000));
    expect(hostPidsWith(token)).toEqual([]);
    expect(readdirSync(r.workDir!).filter((f) => f.startsWith("alive"))).toEqual([]);
  });

  it("holds the network, memory, disk and write caps of a cold start", async () => {
    const net = lastJsonLine((await run(ADVERSARIAL.network(canary.port))).stdoutTail);
    expect(net).toMatchObject({ loopback: "ConnectionRefusedError", dns: "gaierror", interfaces: ["lo"] });
    expect(canary.connections()).toBe(0);
    const mem = await run(ADVERSARIAL.memoryBomb(), { limits: { ...limits, memoryMb: 256 } });
    expect([mem.status, mem.errorSignature]).toEqual(["runtime_error", "memory_error"]);
    const disk = await run("open('big.bin','wb').write(b'x' * (64 << 20))\n", { limits: { ...limits, diskMb: 16 } });
    expect(disk.errorSignature).toBe("disk_quota");
    const targets = ["/usr/pwned", "/etc/pwned", "/data/pwned", "/pwned", "/.zygote/pwned", "/.jobs/pwned", "/.stage/x"];
    const w = lastJsonLine((await run(ADVERSARIAL.writeOutside(targets))).stdoutTail);
    for (const t of targets) expect(w[t], t).not.toBe("written");
    expect(existsSync(join(jobsDir, "pwned"))).toBe(false);
  });
});
