/**
 * The data overview an operator prompt shows: a short profile from TaskMeta (modality, sizes,
 * target, metric and direction, submission columns, column kinds) and the head of train.csv,
 * read from task.publicDir (only the first 64 KiB of the file is read).
 */
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { TaskMeta, TaskPackage } from "../../gym/types.js";

export interface OverviewOptions {
  readonly headRows: number;
  readonly maxLineChars: number;
  readonly maxColumns: number;
}

export function dataOverview(task: TaskPackage, opts: OverviewOptions): string {
  const head =
    opts.headRows > 0
      ? readHead(join(task.publicDir, task.meta.files.train), opts.headRows + 1, opts.maxLineChars)
      : null;
  return profileLines(task.meta, opts.maxColumns)
    .concat(
      head === null
        ? []
        : ["", `First ${Math.max(0, head.length - 1)} rows of ${task.meta.files.train}:`, "```csv", ...head, "```"],
    )
    .join("\n");
}

/** The profile part (pure). */
export function profileLines(meta: TaskMeta, maxColumns: number): string[] {
  const size = (n: number | undefined) => (n === undefined ? "?" : String(n));
  const lines = [
    `- modality: ${meta.modality}; task type: ${meta.taskType}`,
    `- metric: ${meta.metric} (${meta.higherIsBetter ? "higher" : "lower"} is better)`,
    `- train: ${meta.files.train} (${size(meta.nTrain)} rows), target column \`${meta.trainTarget}\``,
    `- test: ${meta.files.test} (${size(meta.nTest)} rows)`,
    `- submission: ${meta.files.sampleSubmission} with columns ` +
      `${[meta.idColumn, ...meta.targetColumns].map((c) => `\`${c}\``).join(", ")}`,
  ];
  if (meta.classes?.length) {
    const shown = meta.classes.slice(0, 20).map(String).join(", ");
    lines.push(`- classes (${meta.classes.length}): ${shown}${meta.classes.length > 20 ? ", …" : ""}`);
  }
  if (meta.files.extra?.length) lines.push(`- other files: ${meta.files.extra.join(", ")}`);
  const cols = meta.columns ?? [];
  if (cols.length) {
    const shown = cols
      .slice(0, maxColumns)
      .map(
        (c) =>
          `${c.name} (${c.kind}, ${c.unique} unique` +
          `${c.missingShare > 0 ? `, ${(100 * c.missingShare).toFixed(1)}% missing` : ""})`,
      );
    lines.push(
      `- columns: ${shown.join("; ")}${cols.length > maxColumns ? `; … and ${cols.length - maxColumns} more` : ""}`,
    );
  }
  return lines;
}

/** First `n` lines of a text file, each cut to `maxChars`; null when the file cannot be read. */
function readHead(path: string, n: number, maxChars: number): string[] | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    const len = readSync(fd, buf, 0, buf.length, 0);
    const lines = buf.subarray(0, len).toString("utf8").split(/\r?\n/);
    if (len === buf.length) lines.pop(); // the last line may be cut by the buffer
    return lines
      .filter((l, i) => l.length > 0 || i === 0)
      .slice(0, n)
      .map((l) => (l.length > maxChars ? `${l.slice(0, maxChars)}…` : l));
  } finally {
    closeSync(fd);
  }
}
