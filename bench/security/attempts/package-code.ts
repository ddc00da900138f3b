// Attempts by a task package's own code (issue 25.1): a copy of the paper-format fixture whose prepare.py
// and metric.py start with hostile lines (markers under /tmp and /root, /etc/shadow sent to a 127.0.0.1
// listener, a process left behind, an allocation past the memory cap), through every gym call that runs
// package code. Held: nothing reached the host, and a capped stage stopped with PackageCodeError naming it.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  checkTask, configurePackageJail, importMlebench, loadTask, packagePaths, PackageCodeError, runPrepare,
  scoreSubmission, verifyMetric, type TaskPackage,
} from "../../../kit/gym/index.js";
import { runSandbox } from "../../../kit/sandbox/index.js";
import {
  cleanMarkers, escaped, hostileCopy, makeHostile, PAPER_TASK, startEvidence, type Evidence,
} from "../../../kit/gym/test-helpers/hostile-package.js";
import type { Attempt, Outcome } from "../attempt.js";

const BOMB_MB = 2048;

/** Run `call` against fresh evidence; held when nothing escaped and `ok(result or error)` says so. */
async function watch(call: (ev: Evidence) => Promise<unknown>, ok: (r: unknown) => string | null): Promise<Outcome> {
  const ev = await startEvidence();
  configurePackageJail({ memoryMb: 512, prepareMemoryMb: 768 });
  try {
    const r = await call(ev).catch((e: unknown) => e);
    await new Promise((res) => setTimeout(res, 300));
    const out = escaped(ev);
    const wrong = ok(r);
    return {
      held: out.length === 0 && wrong === null,
      detail: out.length ? `escaped: ${out.slice(0, 2).join("; ")}` : (wrong ?? `nothing escaped; ${describe(r)}`),
    };
  } finally {
    configurePackageJail({ memoryMb: 4096, prepareMemoryMb: 8192 });
    cleanMarkers(ev);
    await ev.close();
  }
}

const describe = (r: unknown) =>
  r instanceof PackageCodeError ? `PackageCodeError (${r.stage}, ${r.refused})` : r instanceof Error ? r.name : "completed";

/** The call must end in PackageCodeError at `stage` with the memory cap refused. */
const stopped = (stage: string) => (r: unknown) =>
  r instanceof PackageCodeError && r.stage === stage && r.refused === "memory" ? null : `expected ${stage}/memory, got ${describe(r)}`;

const withMeta = async (dir: string, ev: Evidence, bombMb: number): Promise<TaskPackage> => {
  const clean = await loadTask(PAPER_TASK);
  return loadTask(hostileCopy(dir, ev, { bombMb, taskJson: JSON.stringify(clean.meta) }));
};

const attempt = (id: string, what: string, run: Attempt["run"]): Attempt => ({ id, source: "issue 25.1", what, perExecutor: false, run });

export const attempts: Attempt[] = [
  attempt("load-inspect", "loadTask of a package without task.json (metric.py imported to inspect it)", (ctx) =>
    watch((ev) => loadTask(hostileCopy(join(ctx.dir, "pc-load"), ev, { bombMb: BOMB_MB })), stopped("metric inspect")),
  ),
  attempt("quiet-load-check-score", "loadTask, checkTask and scoreSubmission when the hostile lines finish", (ctx) =>
    watch(async (ev) => {
      const task = await loadTask(hostileCopy(join(ctx.dir, "pc-quiet"), ev, { bombMb: 0 }));
      const report = await checkTask(task);
      const score = await scoreSubmission(task, join(task.privateDir, "test_answer.csv"));
      return { passed: report.passed, score };
    }, (r) => ((r as { passed?: boolean }).passed === true ? null : `expected a passing check, got ${describe(r)}`)),
  ),
  attempt("prepare", "runPrepare (task build, task check's reruns)", (ctx) =>
    watch(async (ev) => {
      const task = await withMeta(join(ctx.dir, "pc-prep"), ev, BOMB_MB);
      const p = packagePaths(task.dir);
      return runPrepare(p.prepare, p.raw, join(ctx.dir, "pc-out", "public"), join(ctx.dir, "pc-out", "private"));
    }, stopped("prepare")),
  ),
  attempt("verify", "verifyMetric", (ctx) => watch(async (ev) => verifyMetric(await withMeta(join(ctx.dir, "pc-verify"), ev, BOMB_MB)), stopped("verify"))),
  attempt("score", "scoreSubmission (task score)", (ctx) =>
    watch(async (ev) => {
      const task = await withMeta(join(ctx.dir, "pc-score"), ev, BOMB_MB);
      return scoreSubmission(task, join(task.privateDir, "test_answer.csv"));
    }, stopped("score")),
  ),
  attempt("check", "checkTask (task check)", (ctx) =>
    watch(async (ev) => checkTask(await withMeta(join(ctx.dir, "pc-check"), ev, BOMB_MB)), (r) =>
      r instanceof PackageCodeError && r.refused === "memory" ? null : `expected a memory stop, got ${describe(r)}`),
  ),
  attempt("import-mlebench", "importMlebench of a competition whose prepare.py is hostile", (ctx) =>
    watch(async (ev) => {
      const comp = join(ctx.dir, "pc-comp");
      cpSync(join(PAPER_TASK, "..", "penguins-comp"), comp, { recursive: true });
      makeHostile(join(comp, "prepare.py"), ev, "import", BOMB_MB);
      mkdirSync(join(ctx.dir, "pc-raw"), { recursive: true });
      writeFileSync(join(ctx.dir, "pc-raw", "penguins.csv"), "a,b\n1,2\n");
      return importMlebench(comp, { raw: join(ctx.dir, "pc-raw"), outDir: join(ctx.dir, "pc-imported") });
    }, stopped("import")),
  ),
  attempt("sandbox-run", "runSandbox against the hostile package (its metric scores the submission)", (ctx) =>
    watch(async (ev) => {
      const task = await withMeta(join(ctx.dir, "pc-sbx"), ev, 0);
      const sample = readFileSync(join(task.publicDir, "sample_submission.csv"), "utf8");
      return runSandbox({ task, code: `open("submission.csv", "w").write(${JSON.stringify(sample)})\n`, limits: { timeoutS: 60, memoryMb: 512, cpus: 1 } });
    }, (r) => ((r as { status?: string }).status === "success" ? null : `expected a scored run, got ${describe(r)}`)),
  ),
];
