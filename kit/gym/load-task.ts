import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { settleAll } from "../util/settle-all.js";
import { readConfinedText } from "./confined-files.js";
import { MetricLoadError, PythonError, TaskPackageError } from "./errors.js";
import { inferHigherIsBetter, inferMeta, resolveMetricKind, type DataProfile, type MetricInfo } from "./infer-meta.js";
import { runHarness } from "./package-harness.js";
import { PREPARE_CONFIG } from "./prepare-config.js";
import type { TaskMeta, TaskPackage } from "./types.js";

export const TASK_JSON = "task.json";

/**
 * Caps on the package files loadTask reads on the host (a link to /dev/zero or a huge file must not fill memory):
 * task.json lists every column (a 100,000-column table needs a few MB); a description is a page of text.
 */
const TASK_JSON_MAX_BYTES = 64 * 1024 * 1024;
const DESCRIPTION_MAX_BYTES = 4 * 1024 * 1024;

/** Paths of a package's parts (docs/paper-map.md: Task packages). */
export function packagePaths(dir: string) {
  const root = resolve(dir);
  return {
    root,
    raw: join(root, "raw"),
    publicDir: join(root, "data", "public"),
    privateDir: join(root, "data", "private"),
    answers: join(root, "data", "private", "test_answer.csv"),
    prepare: join(root, "utils", "prepare.py"),
    /** Config of a built package's prepare.py (buildTask only). */
    prepareConfig: join(root, "utils", PREPARE_CONFIG),
    metric: join(root, "utils", "metric.py"),
    taskJson: join(root, TASK_JSON),
  };
}

/**
 * Load a task package. Reads task.json when present; for packages in the paper's published
 * format (no task.json) infers the metadata: id column = first column of sample_submission.csv,
 * targets = the rest, the metric class found in utils/metric.py by its methods, its direction from
 * the constructor default (or the name rule), the modality from the files.
 */
export async function loadTask(dir: string): Promise<TaskPackage> {
  const p = packagePaths(dir);
  if (!existsSync(p.root) || !statSync(p.root).isDirectory()) {
    throw new TaskPackageError(
      `${p.root} is not a folder. Pass a task package folder (with data/public, data/private, utils/).`,
      p.root,
    );
  }
  for (const [what, path] of [
    ["data/public/", p.publicDir],
    ["utils/metric.py", p.metric],
    ["data/private/test_answer.csv", p.answers],
  ] as const) {
    if (!existsSync(path)) {
      throw new TaskPackageError(
        `${p.root} is not a complete task package: ${what} is missing (${path}). Fix: rebuild it ` +
          `(openmle task build) or restore the file.`,
        path,
      );
    }
  }
  const meta = existsSync(p.taskJson) ? readTaskJson(p.root, p.taskJson) : await inferPackageMeta(p.root);
  // Read as packageHash reads: confined to the package, regular files only, under a byte cap.
  const descFile = ["data/public/description.txt", "description.md", "description.txt"].find((f) =>
    existsSync(join(p.root, f)),
  );
  return {
    dir: p.root,
    publicDir: p.publicDir,
    privateDir: p.privateDir,
    meta,
    description: descFile ? (readConfinedText(p.root, descFile, DESCRIPTION_MAX_BYTES, `package ${p.root}`) ?? "") : "",
  };
}

function readTaskJson(root: string, file: string): TaskMeta {
  const text = readConfinedText(root, TASK_JSON, TASK_JSON_MAX_BYTES, `package ${root}`) ?? "";
  let meta: TaskMeta;
  try {
    meta = JSON.parse(text) as TaskMeta;
  } catch (e) {
    throw new TaskPackageError(
      `${file} is not valid JSON (${(e as Error).message}). Fix: repair it, or delete it to let the ` +
        `kit infer the metadata.`,
      file,
      { cause: e },
    );
  }
  for (const key of ["id", "idColumn", "targetColumns", "metric", "higherIsBetter", "files"] as const) {
    if (meta[key] === undefined)
      throw new TaskPackageError(
        `${file} lacks "${key}". Fix: add it, or delete task.json to let the kit infer the metadata.`,
        file,
      );
  }
  return meta;
}

/** Inspect utils/metric.py: the class found by its methods, its constructor defaults. */
export async function inspectMetric(metricPy: string): Promise<MetricInfo> {
  const r = await runHarness<{ ok: boolean; message?: string } & MetricInfo>(
    "metric_harness.py",
    ["inspect", metricPy],
    { stage: "metric inspect", file: metricPy, read: [dirname(metricPy)] },
  );
  if (!r.ok) throw new MetricLoadError(r.message ?? `cannot load ${metricPy}`, metricPy);
  return r;
}

/**
 * Which well-known metrics a metric class computes, from its scores on made-up answers and
 * submissions shaped like the sample submission (metric_probe.py): the matching kinds, or [] when
 * the class rejects the probe or matches none.
 */
export async function probeMetric(metricPy: string, sampleCsv: string, p: DataProfile): Promise<string[]> {
  const opts = {
    id_column: p.idColumn,
    value: p.targetColumns.length === 1 ? p.targetColumns[0] : null,
    targets: p.targetColumns,
    target_numeric: p.target?.numeric ?? false,
    target_unique: p.target?.unique ?? 0,
    classes: p.target?.classes ?? null,
  };
  const r = await runHarness<{ ok: boolean; matches?: string[] }>(
    "metric_probe.py",
    [metricPy, sampleCsv, JSON.stringify(opts)],
    { stage: "probe", file: metricPy, read: [dirname(metricPy), sampleCsv] },
  );
  return r.ok ? (r.matches ?? []) : [];
}

/** Profile data/public (columns, kinds, counts, target classes). */
export async function profilePublic(
  publicDir: string,
  opts: { idColumn?: string; trainTarget?: string } = {},
): Promise<DataProfile> {
  const r = await runHarness<{ ok: boolean; message?: string } & DataProfile>(
    "task_profile.py",
    [publicDir, JSON.stringify({ id_column: opts.idColumn ?? null, train_target: opts.trainTarget ?? null })],
    { stage: "profile", file: publicDir, read: [publicDir] },
  );
  if (!r.ok)
    throw new TaskPackageError(
      `cannot profile ${publicDir}: ${r.message}. Fix: data/public needs sample_submission.csv and ` +
        `train.csv readable as CSV.`,
      publicDir,
    );
  return r;
}

async function inferPackageMeta(root: string): Promise<TaskMeta> {
  const p = packagePaths(root);
  const sample = join(p.publicDir, "sample_submission.csv");
  if (!existsSync(sample)) {
    throw new TaskPackageError(
      `${root} has no task.json and no data/public/sample_submission.csv to infer the submission ` +
        `format from. Fix: add one of them.`,
      sample,
    );
  }
  const [metric, profile] = await settleAll([inspectMetric(p.metric), profilePublic(p.publicDir)]);
  if (profile.targetColumns.length === 0) {
    throw new PythonError(
      `${sample} has only one column; the kit needs an id column followed by the prediction columns.`,
      sample,
    );
  }
  // A class whose name and docstring do not name its metric is probed for its behaviour.
  const probed = resolveMetricKind(metric, inferHigherIsBetter(metric))
    ? []
    : await probeMetric(p.metric, sample, profile);
  const meta = inferMeta(basename(root), profile, metric, probed);
  const train = existsSync(join(p.publicDir, "train.csv"))
    ? "train.csv"
    : existsSync(join(p.publicDir, "train"))
      ? "train"
      : "train.csv";
  const test = existsSync(join(p.publicDir, "test.csv"))
    ? "test.csv"
    : existsSync(join(p.publicDir, "test"))
      ? "test"
      : "test.csv";
  return { ...meta, files: { train, test, sampleSubmission: "sample_submission.csv" } };
}
