import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { settleAll } from "../util/settle-all.js";
import { METRIC_CHECKS, type CheckResult, type QualityReport } from "./check-result.js";
import { GymError, PythonTimeoutError } from "./errors.js";
import { diffTrees, hashTree } from "./hash-tree.js";
import { packagePaths } from "./load-task.js";
import { runHarness } from "./package-harness.js";
import { runPrepare } from "./run-prepare.js";
import type { TaskPackage } from "./types.js";
import { verifyMetric } from "./verify-metric.js";

export interface CheckOptions {
  /** Re-run prepare to test determinism (default true; needs raw/). */
  readonly determinism?: boolean;
  /** Limit of the prepare re-run in ms (default 300 s); past it prepare.py and its children are killed. */
  readonly prepareTimeoutMs?: number;
  readonly now?: () => number;
}

/**
 * The deterministic quality checks of the paper's Fig. 3 funnel and issue 3, with evidence: metric verification,
 * id overlap, answers alignment, duplicates across the split, target leakage, degenerate target,
 * too little data, answers visible under public/, and prepare determinism. The harnesses run
 * concurrently; nothing in the package is modified.
 */
export async function checkTask(task: TaskPackage, opts: CheckOptions = {}): Promise<QualityReport> {
  const now = opts.now ?? Date.now;
  const t0 = now();
  // Every job ends before this returns or throws: a failed check must not leave another running.
  const [metric, data, determinism] = await settleAll([
    verifyMetric(task),
    dataChecks(task),
    opts.determinism === false
      ? Promise.resolve<CheckResult[]>([
          { name: "prepare_deterministic", status: "skip", message: "not requested", evidence: {} },
        ])
      : prepareDeterminism(task, opts),
  ]);
  const checks = [...metric, ...data, ...determinism];
  const metricNames = new Set<string>(METRIC_CHECKS);
  return {
    taskId: task.meta.id,
    dir: task.dir,
    passed: checks.every((c) => c.status !== "fail"),
    metricValid: checks.filter((c) => metricNames.has(c.name)).every((c) => c.status !== "fail"),
    checks,
    durationMs: now() - t0,
  };
}

async function dataChecks(task: TaskPackage): Promise<CheckResult[]> {
  const m = task.meta;
  const r = await runHarness<{ ok: boolean; message?: string; checks: CheckResult[] }>(
    "task_checks.py",
    [
      task.publicDir,
      packagePaths(task.dir).answers,
      JSON.stringify({
        id_column: m.idColumn,
        train_target: m.trainTarget,
        target_columns: m.targetColumns,
        task_type: m.taskType,
        train: m.files.train.endsWith(".csv") ? m.files.train : "train.csv",
        test: m.files.test.endsWith(".csv") ? m.files.test : "test.csv",
        sample: m.files.sampleSubmission,
      }),
    ],
    { stage: "check", file: task.publicDir, read: [task.publicDir, packagePaths(task.dir).answers] },
  );
  if (!r.ok)
    throw new GymError(
      `data checks of ${task.dir} failed to run: ${r.message}. Fix: data/public must hold readable ` +
        `train, test and sample CSVs.`,
      task.publicDir,
    );
  return r.checks;
}

/**
 * Determinism and drift of prepare.py:
 * 1. prepare_deterministic: two fresh runs of prepare (each into new public/ and private/ folders)
 *    must give the same bytes; a difference fails, listing the files and their first differing line;
 * 2. data_drift: a fresh run that differs from the package's shipped data/ (e.g. written by another
 *    pandas version, which reads the string "None" as missing) is a warning listing the files and the
 *    first differing line, not a determinism failure.
 */
export async function prepareDeterminism(
  task: TaskPackage,
  opts: { prepareTimeoutMs?: number } = {},
): Promise<CheckResult[]> {
  const p = packagePaths(task.dir);
  const name = "prepare_deterministic";
  if (!existsSync(p.prepare) || !existsSync(p.raw))
    return [{ name, status: "skip", message: "no utils/prepare.py or raw/ to re-run", evidence: {} }];
  const tmp = mkdtempSync(join(tmpdir(), "openmle-det-"));
  const dirs = ["public", "private"];
  const skip = new Set(["description.txt"]);
  const show = (d: ReturnType<typeof diffTrees>) =>
    d
      .slice(0, 5)
      .map((x) => (x.line === null ? `${x.file}: ${x.a} vs ${x.b}` : `${x.file} line ${x.line}: "${x.a}" vs "${x.b}"`));
  try {
    try {
      for (const run of ["a", "b"])
        await runPrepare(p.prepare, p.raw, join(tmp, run, "public"), join(tmp, run, "private"), {
          timeoutMs: opts.prepareTimeoutMs,
          stage: "check",
        });
    } catch (e) {
      if (!(e instanceof PythonTimeoutError)) throw e;
      return [
        {
          name,
          status: "fail",
          message:
            `prepare.py ran past its ${e.limitS} s limit and was killed with its child ` +
            `processes. Fix: make it finish (seeded, no waiting on input), then rebuild.`,
          evidence: { limitS: e.limitS },
        },
      ];
    }
    const reruns = diffTrees(join(tmp, "a"), join(tmp, "b"), dirs, skip);
    const det: CheckResult = reruns.length
      ? {
          name,
          status: "fail",
          message:
            `two fresh runs of prepare.py ` +
            `differ in ${reruns.length} file(s): ${show(reruns).join("; ")}. Fix: seed every random ` +
            `choice and sort the outputs, then rebuild.`,
          evidence: { files: reruns },
        }
      : {
          name,
          status: "pass",
          message: "two fresh runs of prepare.py give the same bytes",
          evidence: { hash: hashTree(join(tmp, "a"), dirs, skip).slice(0, 16) },
        };
    const drift = diffTrees(join(tmp, "a"), join(task.dir, "data"), dirs, skip);
    const dr: CheckResult = drift.length
      ? {
          name: "data_drift",
          status: "warn",
          message:
            `a fresh run of prepare.py differs from the shipped ` +
            `data/ in ${drift.length} file(s) (rerun vs ` +
            `shipped): ${show(drift).join("; ")}. The shipped data may come from other library ` +
            `versions (e.g. a pandas that reads "None" as missing); rebuild to use this machine's output.`,
          evidence: { files: drift },
        }
      : {
          name: "data_drift",
          status: "pass",
          message: "a fresh run of prepare.py reproduces the shipped data/ byte for byte",
          evidence: {},
        };
    return [det, dr];
  } catch (e) {
    return [{ name, status: "fail", message: (e as Error).message, evidence: {} }];
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
