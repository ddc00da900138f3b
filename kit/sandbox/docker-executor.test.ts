// The sandbox contract and the adversarial programs on the Docker backend. Needs a Docker engine:
// uses the running one or starts dockerd (root, docker.io installed); otherwise skips, saying why.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTask, type TaskPackage } from "../gym/index.js";
import { ensureDockerEngine, type EngineHandle } from "./docker-engine.js";
import { DockerExecutor } from "./docker-executor.js";
import { importHostPythonImage } from "./docker-image.js";
import { runSandbox } from "./run-sandbox.js";
import { ADVERSARIAL, hostPidsWith, program, TINY_TASK_DIR, lastJsonLine, startCanary } from "./test-helpers.js";

const engine: EngineHandle | string = await ensureDockerEngine();
const skip = typeof engine === "string";
if (typeof engine === "string") console.warn(`SKIP Docker executor tests: ${engine}`);

describe.skipIf(skip)("DockerExecutor: same contract as local", () => {
  let task: TaskPackage;
  let ex: DockerExecutor;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  let jobsDir: string;
  beforeAll(async () => {
    const e = engine as EngineHandle;
    const image = await importHostPythonImage(e.docker);
    ex = new DockerExecutor({ image, hostReadOnly: ["/usr"] });
    await ex.check();
    task = await loadTask(TINY_TASK_DIR);
    jobsDir = mkdtempSync(join(tmpdir(), "sbx-docker-"));
    canary = await startCanary();
  });
  afterAll(() => {
    canary?.close();
    if (jobsDir) rmSync(jobsDir, { recursive: true, force: true });
    if (typeof engine !== "string") engine.stop();
  });
  const limits = { timeoutS: 60, memoryMb: 1024, cpus: 1 };
  const report = lastJsonLine;

  it("the six feedback modes", async () => {
    const run = (code: string | null, l = limits) => runSandbox({ task, code, limits: l, executor: ex });
    const ok = await run(program("success"));
    expect([ok.status, ok.backend]).toEqual(["success", "docker"]);
    expect(ok.testScore).toBeGreaterThan(0.6);
    expect((await run(program("runtime-error"))).errorSignature).toBe("import_error");
    expect((await run("")).status).toBe("missing_code");
    expect((await run(program("missing-submission"))).status).toBe("missing_submission");
    expect((await run(program("scoring-failure"))).errorSignature).toBe("column_mismatch");
    const t = await run(program("timeout"), { ...limits, timeoutS: 2 });
    expect([t.status, t.errorSignature]).toEqual(["timeout", "timeout"]);
  });

  it("adversarial: no data/private, no network, no leftover processes, memory cap, no writes outside", async () => {
    const run = (code: string, l = limits) => runSandbox({ task, code, limits: l, executor: ex, jobsDir });
    const priv = await run(ADVERSARIAL.readPrivate(join(task.privateDir, "test_answer.csv")));
    expect(report(priv.stdoutTail)).toEqual({ found: [] });

    const net = report((await run(ADVERSARIAL.network(canary.port))).stdoutTail);
    expect(net.loopback).toBe("ConnectionRefusedError");
    expect(net.interfaces).toEqual(["lo"]);
    expect(canary.connections()).toBe(0);

    const token = `dtok${Date.now()}`;
    const procs = await run(ADVERSARIAL.leaveProcesses(token));
    expect(report(procs.stdoutTail)).toEqual({ started: true });
    await new Promise((r) => setTimeout(r, 2000));
    expect(hostPidsWith(token)).toEqual([]);
    expect(readdirSync(procs.workDir!).filter((f) => f.startsWith("alive"))).toEqual([]);

    const mem = await run(ADVERSARIAL.memoryBomb(), { ...limits, memoryMb: 256 });
    expect([mem.status, mem.errorSignature]).toEqual(["runtime_error", "memory_error"]);

    const targets = ["/usr/pwned", "/etc/pwned", "/data/pwned", join(task.dir, "pwned"), "/pwned"];
    const w = report((await run(ADVERSARIAL.writeOutside(targets))).stdoutTail);
    for (const t of targets) expect(w[t], t).not.toBe("written");
    expect(existsSync(join(task.dir, "pwned"))).toBe(false);
  });
});
