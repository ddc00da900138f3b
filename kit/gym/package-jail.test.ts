import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { jailUnavailable } from "../jail/index.js";
import { checkTask } from "./check-task.js";
import { PackageCodeError } from "./errors.js";
import { loadTask, packagePaths } from "./load-task.js";
import { importMlebench } from "./mlebench-import.js";
import { configurePackageJail } from "./package-harness.js";
import { runPrepare } from "./run-prepare.js";
import { scoreSubmission } from "./score-submission.js";
import { verifyMetric } from "./verify-metric.js";
import { cleanMarkers, escaped, hostileCopy, makeHostile, PAPER_TASK, startEvidence, type Evidence } from "./test-helpers/hostile-package.js";

const tmp = mkdtempSync(join(tmpdir(), "gym-hostile-"));
let ev: Evidence;
let taskJson: string;
beforeAll(async () => {
  ev = await startEvidence();
  configurePackageJail({ memoryMb: 512, prepareMemoryMb: 768 });
  const clean = await loadTask(PAPER_TASK);
  taskJson = JSON.stringify(clean.meta);
});
afterAll(async () => {
  configurePackageJail({ memoryMb: 4096, prepareMemoryMb: 8192 });
  cleanMarkers(ev);
  await ev.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The call's typed error, after checking that nothing the package's code tried reached the host. */
async function held(call: () => Promise<unknown>): Promise<unknown> {
  const err = await call().then(() => null, (e: unknown) => e);
  await new Promise((r) => setTimeout(r, 300)); // a connection in flight lands
  expect(escaped(ev)).toEqual([]);
  return err;
}

describe.skipIf(!!jailUnavailable())("a package's own code runs in the jail", () => {
  test("hostile lines that finish: loading, checks and scoring work, and nothing reaches the host", async () => {
    const dir = hostileCopy(join(tmp, "quiet"), ev, { bombMb: 0 });
    const task = await loadTask(dir);
    const report = await checkTask(task);
    expect(report.checks.filter((c) => c.status === "fail")).toEqual([]);
    expect(await scoreSubmission(task, join(task.privateDir, "test_answer.csv"))).toEqual({ ok: true, score: 1 });
    await new Promise((r) => setTimeout(r, 300));
    expect(escaped(ev)).toEqual([]);
  }, 300_000);

  test("hostile lines that allocate past the memory cap: every stage stops with its typed error", async () => {
    const bare = hostileCopy(join(tmp, "bomb-bare"), ev, { bombMb: 2048 });
    const withMeta = hostileCopy(join(tmp, "bomb-meta"), ev, { bombMb: 2048, taskJson });
    const stageOf = (e: unknown) => (e instanceof PackageCodeError ? `${e.stage}/${e.refused}` : String(e));
    expect(stageOf(await held(() => loadTask(bare)))).toBe("metric inspect/memory");
    const task = await loadTask(withMeta); // task.json: no metric inspection
    const p = packagePaths(task.dir);
    expect(stageOf(await held(() => verifyMetric(task)))).toBe("verify/memory");
    expect(stageOf(await held(() => scoreSubmission(task, join(task.privateDir, "test_answer.csv"))))).toBe("score/memory");
    expect(stageOf(await held(() => runPrepare(p.prepare, p.raw, join(tmp, "o", "public"), join(tmp, "o", "private"))))).toBe("prepare/memory");
    expect(stageOf(await held(() => checkTask(task)))).toMatch(/^(check|verify)\/memory$/);
  }, 300_000);

  test("an MLE-bench competition whose prepare.py is hostile: the import stops at stage import, nothing left", async () => {
    const comp = join(tmp, "comp");
    cpSync(join(import.meta.dirname, "test-helpers", "penguins-comp"), comp, { recursive: true });
    makeHostile(join(comp, "prepare.py"), ev, "import", 2048);
    const raw = join(tmp, "comp-raw");
    mkdirSync(raw, { recursive: true });
    writeFileSync(join(raw, "penguins.csv"), "a,b\n1,2\n"); // never read: the prepare dies first
    const out = join(tmp, "imported");
    const err = await held(() => importMlebench(comp, { raw, outDir: out }));
    expect(err).toBeInstanceOf(PackageCodeError);
    expect((err as PackageCodeError).stage).toBe("import");
    expect(readdirSync(tmp).filter((n) => n.startsWith("imported"))).toEqual([]); // no half-built package
  }, 300_000);

  test("prepare.py that leaves a symbolic link to /etc/shadow in public/: removed and refused", async () => {
    const dir = join(tmp, "linker");
    cpSync(PAPER_TASK, dir, { recursive: true });
    const prep = join(dir, "utils", "prepare.py");
    writeFileSync(prep, readFileSync(prep, "utf8") + "\n_orig = prepare\ndef prepare(raw, public, private):\n    _orig(raw, public, private)\n    import os\n    os.symlink('/etc/shadow', os.path.join(public, 'leak.csv'))\n");
    const p = packagePaths(dir);
    const err = await runPrepare(p.prepare, p.raw, join(tmp, "l", "public"), join(tmp, "l", "private")).catch((e) => e);
    expect(err).toBeInstanceOf(PackageCodeError);
    expect((err as PackageCodeError).refused).toBe("links");
  }, 120_000);
});
