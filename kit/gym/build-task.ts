import { chmodSync, cpSync, existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import { makeBuildTemp, removeStaleBuildTemps } from "./build-temp.js";
import { confinedFiles } from "./confined-files.js";
import { renderDescription } from "./describe-task.js";
import { GymError, PrepareError, TaskSpecError } from "./errors.js";
import { loadTask, packagePaths, profilePublic, TASK_JSON } from "./load-task.js";
import { renderMetricPy } from "./metrics/metric-py.js";
import { getMetric, type MetricName } from "./metrics/registry.js";
import { prepareConfig, writePrepare } from "./prepare-config.js";
import { runPrepare } from "./run-prepare.js";
import { freshIdColumn, tableColumns } from "./table-columns.js";
import { TaskSpec, type TaskSpecInput } from "./task-spec.js";
import type { TaskMeta, TaskPackage } from "./types.js";

export type BuildEvent =
  | { readonly type: "build-start"; readonly taskId: string; readonly tmpDir: string }
  /** The spec named no id column: ids are generated into `idColumn`; `shadowed`: the table's own `id`, kept. */
  | { readonly type: "id-generated"; readonly taskId: string; readonly idColumn: string; readonly shadowed?: string }
  | { readonly type: "prepare-done"; readonly taskId: string; readonly nTrain: number; readonly nTest: number }
  | { readonly type: "build-done"; readonly taskId: string; readonly dir: string };

export interface BuildOptions {
  /** Where the package goes. Built in a sibling temp folder and renamed into place when complete. */
  readonly outDir: string;
  /** Replace an existing package at outDir (default: refuse). */
  readonly overwrite?: boolean;
  /** When outDir appears while building (a concurrent build of the same task), keep it and drop ours. */
  readonly keepExisting?: boolean;
  readonly onEvent?: (e: BuildEvent) => void;
}

const RAW_TABLE_EXT = new Set([".csv", ".json", ".jsonl"]);

/**
 * Build a complete task package from a raw table (and optional asset files):
 * 1. check the spec (zod, metric registry, raw files); a spec without idColumn gets generated ids in a column
 *    named so that it takes over no column of the table (table-columns.ts);
 * 2. copy raw/, write utils/prepare.py (the deterministic split, verbatim) and its config
 *    utils/prepare_config.json (the spec's fields as data, never code);
 * 3. run prepare to fill data/public and data/private;
 * 4. profile the public data, write utils/metric.py (from the registry), task.json and description.txt;
 * 5. rename the temporary folder into place. On any error the temporary folder is removed.
 * The temporary folder (`<out>.tmp-<pid>-<start>-<random>`) is mode 0700 while it exists; a build killed before
 * step 5 leaves it, and the next build of the same outDir removes it once its process is gone (build-temp.ts).
 */
export async function buildTask(specIn: TaskSpecInput, opts: BuildOptions): Promise<TaskPackage> {
  const parsed = parseSpec(specIn);
  const def = getMetric(parsed.metric);
  const table = resolve(parsed.table);
  if (!existsSync(table) || !statSync(table).isFile()) {
    throw new TaskSpecError(`raw table ${table} does not exist. Fix: set the spec's table to a CSV/JSON file.`, table);
  }
  if (!RAW_TABLE_EXT.has(extname(table).toLowerCase())) {
    throw new TaskSpecError(`raw table ${table} is not .csv, .json or .jsonl. Fix: convert it to one of them.`, table);
  }
  if (statSync(table).size === 0)
    throw new TaskSpecError(`raw table ${table} is empty. Fix: point the spec at a file with data.`, table);
  // 1b. the id column: the spec's, else a generated one under a name no column of the table has.
  const columns = parsed.idColumn ? [] : tableColumns(table);
  const spec = { ...parsed, idColumn: parsed.idColumn ?? freshIdColumn(columns) };
  if (spec.fileColumn && !spec.filesDir)
    throw new TaskSpecError(
      `spec ${spec.id}: fileColumn "${spec.fileColumn}" needs filesDir (the folder of files). Fix: set filesDir.`,
      table,
    );
  const files = spec.filesDir ? resolve(spec.filesDir) : undefined;
  if (files && !(existsSync(files) && statSync(files).isDirectory()))
    throw new TaskSpecError(`spec ${spec.id}: filesDir ${files} is not a folder. Fix: point filesDir at one.`, files);
  // Copied on the host: regular files only, links only inside it, under TreeLimits (ConfinedPathError otherwise).
  if (files) confinedFiles(files, ["."], { what: `spec ${spec.id}: filesDir ${files}` });
  if (spec.split.kind === "time" && !spec.split.timeColumn)
    throw new TaskSpecError(`spec ${spec.id}: a time split needs split.timeColumn. Fix: name the time column.`, table);
  if (spec.split.kind === "group" && !spec.split.groupColumn)
    throw new TaskSpecError(
      `spec ${spec.id}: a group split needs split.groupColumn. Fix: name the group column.`,
      table,
    );

  const out = resolve(opts.outDir);
  removeStaleBuildTemps(out); // what a killed build of this --out left: its answers must not stay behind
  if (existsSync(out) && opts.keepExisting) return loadTask(out);
  if (existsSync(out) && !opts.overwrite) {
    throw new TaskSpecError(
      `${out} already exists. Fix: pass overwrite (--force) or choose another --out folder.`,
      out,
    );
  }
  mkdirSync(dirname(out), { recursive: true });
  const { tmp, mode } = makeBuildTemp(out);
  opts.onEvent?.({ type: "build-start", taskId: spec.id, tmpDir: tmp });
  if (!parsed.idColumn)
    opts.onEvent?.({
      type: "id-generated",
      taskId: spec.id,
      idColumn: spec.idColumn,
      ...(columns.includes("id") ? { shadowed: "id" } : {}),
    });
  try {
    const p = packagePaths(tmp);
    mkdirSync(p.raw, { recursive: true });
    mkdirSync(dirname(p.prepare), { recursive: true });
    cpSync(table, join(p.raw, basename(table)));
    const filesDir = spec.filesDir ? "files" : undefined;
    if (files) cpSync(files, join(p.raw, "files"), { recursive: true, dereference: true });

    writePrepare(p.prepare, p.prepareConfig, prepareConfig(spec, basename(table), filesDir, def.output));
    await runPrepare(p.prepare, p.raw, p.publicDir, p.privateDir);
    for (const f of [
      join(p.publicDir, "train.csv"),
      join(p.publicDir, "test.csv"),
      join(p.publicDir, "sample_submission.csv"),
      p.answers,
    ]) {
      if (!existsSync(f))
        throw new PrepareError(
          `${p.prepare} ran but did not write ${f}. Fix: prepare() must write train, test, sample ` +
            `submission and answers.`,
          p.prepare,
        );
    }

    const profile = await profilePublic(p.publicDir, { idColumn: spec.idColumn, trainTarget: spec.target });
    opts.onEvent?.({ type: "prepare-done", taskId: spec.id, nTrain: profile.nTrain, nTest: profile.nTest });
    writeFileSync(
      p.metric,
      renderMetricPy(spec.metric as MetricName, {
        taskId: spec.id,
        idColumn: spec.idColumn,
        columns: profile.targetColumns,
        k: spec.k,
      }),
    );
    const classes = def.taskType === "classification" && profile.target?.classes ? profile.target.classes : undefined;
    const meta: TaskMeta = {
      id: spec.id,
      name: spec.name || spec.id,
      modality: spec.modality,
      taskType: def.taskType,
      idColumn: spec.idColumn,
      targetColumns: profile.targetColumns,
      trainTarget: spec.target,
      metric: spec.metric,
      higherIsBetter: def.higherIsBetter,
      ...(classes ? { classes } : {}),
      files: {
        train: "train.csv",
        test: "test.csv",
        sampleSubmission: "sample_submission.csv",
        ...(spec.fileColumn ? { extra: ["train/", "test/"] } : {}),
      },
      columns: profile.columns,
      nTrain: profile.nTrain,
      nTest: profile.nTest,
      ...(spec.source ? { source: spec.source } : {}),
      ...(spec.licence ? { licence: spec.licence } : {}),
    };
    writeFileSync(join(p.publicDir, "description.txt"), renderDescription(spec, meta));
    writeFileSync(join(tmp, TASK_JSON), `${JSON.stringify(meta, null, 2)}\n`);
    writeFileSync(
      join(tmp, "spec.json"),
      `${JSON.stringify({ ...spec, table: basename(table), filesDir }, null, 2)}\n`,
    );
    chmodSync(tmp, mode); // published like any new folder here
    moveIntoPlace(tmp, out, !!opts.overwrite && !opts.keepExisting);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  opts.onEvent?.({ type: "build-done", taskId: spec.id, dir: out });
  return loadTask(out);
}

/** Parse a spec with zod; errors name the field and the fix. */
export function parseSpec(specIn: TaskSpecInput): TaskSpec {
  const r = TaskSpec.safeParse(specIn);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join(".") || "(spec)"}: ${i.message}`).join("; ");
    throw new TaskSpecError(
      `task spec is invalid: ${issues}. Fix: correct these fields (see TaskSpec in kit/gym/task-spec.ts).`,
      String((specIn as { table?: string }).table ?? "spec"),
    );
  }
  getMetric(r.data.metric, `task spec ${r.data.id}`);
  return r.data;
}

/**
 * Rename a finished folder to `out`. With `replace`, an existing `out` is swapped out only after the
 * new one is complete, and put back when the swap fails; without it, an `out` that appeared meanwhile
 * (a concurrent build) is kept.
 */
export function moveIntoPlace(tmp: string, out: string, replace: boolean): void {
  if (!replace || !existsSync(out)) {
    try {
      renameSync(tmp, out);
      return;
    } catch (e) {
      // Another builder won the race (concurrent builds of the same id): keep theirs.
      if (existsSync(out)) {
        rmSync(tmp, { recursive: true, force: true });
        return;
      }
      throw new GymError(`cannot move ${tmp} to ${out}: ${(e as Error).message}`, out, { cause: e });
    }
  }
  const old = `${out}.old-${process.pid}-${Date.now()}`;
  renameSync(out, old);
  try {
    renameSync(tmp, out);
  } catch (e) {
    renameSync(old, out); // the previous package stays where it was
    throw new GymError(`cannot move ${tmp} to ${out}: ${(e as Error).message}`, out, { cause: e });
  }
  rmSync(old, { recursive: true, force: true });
}
