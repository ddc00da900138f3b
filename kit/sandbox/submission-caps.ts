import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import type { TaskPackage } from "../gym/index.js";
import { csvHeaderColumns } from "./csv-header-columns.js";

/** What the host checks before a submission reaches the metric. */
export interface SubmissionCaps {
  readonly maxBytes: number;
  readonly maxColumns: number;
}

const MiB = 1024 * 1024;

/**
 * Caps of a task's submission: maxBytes = max(64 MiB, 64 × the sample submission's size);
 * maxColumns = max(16, 4 × the sample submission's columns). Generous for real predictions
 * (long floats, an extra index column), small enough that the scorer's memory and time stay bounded.
 */
export function submissionCaps(task: TaskPackage): SubmissionCaps {
  let sampleBytes = 0;
  try {
    sampleBytes = statSync(join(task.publicDir, task.meta.files.sampleSubmission)).size;
  } catch {
    /* no sample: the floor applies */
  }
  return {
    maxBytes: Math.max(64 * MiB, 64 * sampleBytes),
    maxColumns: Math.max(16, 4 * (1 + task.meta.targetColumns.length)),
  };
}

/**
 * null when the submission file is within the caps, else the scoring_failure message. Reads
 * only the file's size and its header record (at most 1 MiB), never the whole file.
 */
export function checkSubmission(path: string, caps: SubmissionCaps): string | null {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const mib = (b: number) => `${(b / MiB).toFixed(1)} MiB`;
    if (size > caps.maxBytes)
      return (
        `submission.csv is ${mib(size)}, over the ${mib(caps.maxBytes)} cap for this task; ` +
        `write one row per test id with the sample submission's columns`
      );
    const buf = Buffer.alloc(Math.min(size, MiB));
    const n = readSync(fd, buf, 0, buf.length, 0);
    // Counted as pandas counts them: a stray quote must not hide commas (csv-header-columns.ts).
    const columns = csvHeaderColumns(buf.subarray(0, n), n === size);
    if (columns === null)
      return (
        `submission.csv has a header record longer than 1.0 MiB, over the 1 MiB cap; write the ` +
        `sample submission's columns`
      );
    if (columns > caps.maxColumns)
      return (
        `submission.csv has ${columns} columns, over the ${caps.maxColumns} columns cap for ` +
        `this task; write the sample submission's columns`
      );
    return null;
  } finally {
    closeSync(fd);
  }
}
