// `openmle task build --table FILE --target COL`: a user's own table framed by the corpus' rules (kit/gym
// frameTable), every choice printed with its reason and the flag that overrides it, then built with buildTask.
import { writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import type { Command } from "commander";
import { buildTask, frameTable, type FramingChoice, type TaskPackage, type TableFramingInput } from "../gym/index.js";
import { printableLine } from "../util/index.js";
import { output, printErr, UsageError } from "./run-cli.js";

/** The flags of `task build` that frame a table (beside a spec file or --builtin). */
export interface TableFlags {
  table?: string;
  target?: string;
  id?: string;
  description?: string;
  metric?: string;
  modality?: string;
  split?: string;
  timeColumn?: string;
  groupColumn?: string;
  testSize?: string;
  drop?: string;
  keep?: string;
  idColumn?: string;
  maxRows?: string;
  dryRun?: boolean;
  saveSpec?: string;
}

/** The flag that overrides each choice, as printed beside it. */
const OVERRIDE: Record<FramingChoice["field"], string> = {
  target: "",
  metric: "--metric",
  split: "--split, --time-column, --group-column, --test-size",
  drop: "--drop, --keep",
  modality: "--modality",
  idColumn: "--id-column",
  maxRows: "--max-rows",
};

export function addTableFlags(cmd: Command): Command {
  return cmd
    .option("--table <file>", "frame your own table (CSV, JSON records or JSONL) by the corpus' rules; with --target")
    .option("--target <column>", "the column to predict (with --table)")
    .option("--id <id>", "the task id (with --table; default <file name>-<target>)")
    .option("--description <text>", "what the data is, one line (with --table)")
    .option("--metric <name>", "override the metric the rules choose (kit/gym/metrics)")
    .option("--modality <kind>", "override the modality: tabular, image, text, time_series, audio, multimodal, other")
    .option("--split <kind>", "override the split: random, stratified, time, group")
    .option("--time-column <column>", "the column ordering rows in time (a time split)")
    .option("--group-column <column>", "the column whose values must not straddle the split (a group split)")
    .option("--test-size <share>", "share of rows in the test set (default 0.2)")
    .option("--drop <columns>", "comma-separated columns to drop besides the rules'")
    .option("--keep <columns>", "comma-separated columns the rules drop that stay features")
    .option("--id-column <column>", "a column of the table, unique per row, used as the id instead of generated ids")
    .option("--max-rows <n>", "rows above which a deterministic subsample is taken (default 4000)")
    .option("--dry-run", "print the choices and the spec; build nothing (with --table)")
    .option("--save-spec <file>", "also write the framed spec as JSON, to rebuild with `task build <file>`");
}

const list = (s: string | undefined) =>
  s
    ? s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean)
    : [];

function num(flag: string, v: string | undefined, int: boolean): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || (int && !Number.isInteger(n)))
    throw new UsageError(
      `${flag} ${v}: not ${int ? "a whole number" : "a number"}. Pass e.g. ${int ? "4000" : "0.2"}.`,
    );
  return n;
}

/** The framing input of the flags; flags that only frame a table, given without --table, are usage errors. */
export function tableInput(o: TableFlags): TableFramingInput {
  if (!o.target) throw new UsageError("--table needs --target <column>, the column to predict.");
  return {
    table: o.table!,
    target: o.target,
    ...(o.id ? { id: o.id } : {}),
    ...(o.description ? { description: o.description } : {}),
    ...(o.metric ? { metric: o.metric } : {}),
    ...(o.modality ? { modality: o.modality as TableFramingInput["modality"] } : {}),
    drop: list(o.drop),
    keep: list(o.keep),
    split: {
      ...(o.split ? { kind: o.split as NonNullable<TableFramingInput["split"]>["kind"] } : {}),
      ...(o.timeColumn ? { timeColumn: o.timeColumn } : {}),
      ...(o.groupColumn ? { groupColumn: o.groupColumn } : {}),
    },
    ...(o.testSize !== undefined ? { testSize: num("--test-size", o.testSize, false) } : {}),
    ...(o.idColumn ? { idColumn: o.idColumn } : {}),
    ...(o.maxRows !== undefined ? { maxRows: num("--max-rows", o.maxRows, true) } : {}),
  };
}

/** The choices as aligned lines: field, value, reason, and the flag that overrides it. */
export function choiceLines(choices: readonly FramingChoice[]): string[] {
  const w = Math.max(...choices.map((c) => c.value.length), 5);
  return choices.map(
    (c) =>
      `  ${c.field.padEnd(9)} ${printableLine(c.value).padEnd(w)}  ${printableLine(c.why)}` +
      (c.why === "given" || !OVERRIDE[c.field] ? "" : ` (override: ${OVERRIDE[c.field]})`),
  );
}

/** Frame, print the choices (stderr with --json), optionally save the spec, then build unless --dry-run. */
export async function buildFromTable(o: TableFlags & { out?: string; force?: boolean; json?: boolean }): Promise<void> {
  if (!o.dryRun && !o.out)
    throw new UsageError("--table needs --out <dir>, the package folder to create (or --dry-run).");
  const framed = await frameTable(tableInput(o));
  const { nRows, columns } = framed.profile;
  const size = `${nRows.toLocaleString("en-US")} rows, ${columns.length} columns`;
  const head = `framing ${o.table} (${size}) as task ${framed.spec.id}:`;
  const lines = [head, ...choiceLines(framed.choices)];
  if (o.json) for (const l of lines) printErr(l);
  if (o.saveSpec) {
    const file = resolve(o.saveSpec);
    const table = relative(dirname(file), resolve(framed.spec.table)) || framed.spec.table;
    writeFileSync(file, `${JSON.stringify({ ...framed.spec, table }, null, 2)}\n`);
    lines.push(`spec written to ${file}`);
  }
  let t: TaskPackage | undefined;
  if (!o.dryRun) {
    if (!o.json) process.stdout.write(`${lines.join("\n")}\n`);
    t = await buildTask(framed.spec, { outDir: o.out!, overwrite: !!o.force });
  }
  output(
    !!o.json,
    { spec: framed.spec, choices: framed.choices, ...(t ? { id: t.meta.id, dir: t.dir, meta: t.meta } : {}) },
    () =>
      t
        ? `built ${printableLine(t.meta.id)} into ${t.dir}: ${t.meta.nTrain} train / ${t.meta.nTest} test ` +
          `rows, metric ${printableLine(t.meta.metric)}`
        : [...lines, "", JSON.stringify(framed.spec, null, 2), "(--dry-run: nothing built)"].join("\n"),
  );
}
