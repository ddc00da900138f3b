// `workspace query --timeout/--memory` (issue 59.7): the flags, their defaults, the line a stopped query
// prints, and printing its rows without building one string of them all. The store enforces the limits
// (kit/store/query-limits.ts); this file speaks of them in flags.
import type { Command } from "commander";
import { QueryLimitError, type QueryLimits } from "../store/index.js";
import { MAX_TIMER_S } from "../util/index.js";
import { formatTable } from "./format.js";
import { intFlag, numberFlag } from "./numeric-flag.js";
import { jsonText, output, UsageError } from "./run-cli.js";

/** Defaults: a minute is long for one query of a workspace; 1 GiB holds any table of a search many times. */
export const QUERY_DEFAULTS = { timeoutS: "60", memoryMb: "1024" } as const;

/** The flags as commander gives them. */
export interface QueryLimitFlags {
  readonly timeout: string;
  readonly memory: string;
}

/** Add --timeout and --memory to `workspace query`. */
export function addQueryLimitFlags(cmd: Command): Command {
  return cmd
    .option("--timeout <s>", "stop the query after this many seconds", QUERY_DEFAULTS.timeoutS)
    .option(
      "--memory <MiB>",
      "memory limit of the query in MiB (DuckDB's memory_limit, and what its rows may take)",
      QUERY_DEFAULTS.memoryMb,
    );
}

/** The store's limits from the flags; a value out of range is one usage error naming its range. */
export function queryLimits(o: QueryLimitFlags): QueryLimits {
  const timeoutS = numberFlag("timeout", o.timeout, {
    min: 0.1,
    max: MAX_TIMER_S,
    why: "Node timers cannot wait longer",
  });
  // Below 16 MiB DuckDB cannot even read the catalog; 16 TiB is past any machine (as sandbox run --memory).
  const memoryMb = intFlag("memory", o.memory, { min: 16, max: 2 ** 24 });
  return { timeoutMs: Math.round(timeoutS * 1000), memoryMb };
}

/** A stopped query as one line saying which limit it hit and the flag that raises it. */
export function queryLimitLine(e: QueryLimitError): UsageError {
  const mib = `${e.value} MiB`;
  if (e.limit === "time")
    return new UsageError(
      `query stopped at its time limit (--timeout ${e.value / 1000} s): narrow it (a WHERE, a LIMIT) ` +
        `or pass a larger --timeout.`,
    );
  if (e.limit === "memory")
    return new UsageError(
      `query stopped at its memory limit (--memory ${mib}; ${e.detail}): narrow it (a WHERE, fewer groups) ` +
        `or pass a larger --memory.`,
    );
  return new UsageError(
    `query stopped: its rows take more than its memory limit (--memory ${mib}; ${e.detail}): add a LIMIT, ` +
      `pass a larger --memory, or write them to Parquet with openmle workspace export.`,
  );
}

/**
 * The most rows the human table shows: laying a table out costs about 40 times its rows' memory (a million
 * short rows took 1.2 GB and 30 s), and no one reads more on a terminal. `--json` prints every row.
 */
export const TABLE_ROWS = 10_000;

/**
 * The rows of a query: as a table (the first TABLE_ROWS, and a line saying how many were left out), or as the
 * JSON array `jsonText(rows, 2)` would give, written a thousand rows at a time (one string of a big result would
 * pass V8's longest string, about 512 MiB).
 */
export function printRows(json: boolean, rows: readonly Record<string, unknown>[]): void {
  if (!json) {
    const shown = rows.length > TABLE_ROWS ? rows.slice(0, TABLE_ROWS) : rows;
    const more =
      rows.length > shown.length
        ? `\n(${shown.length.toLocaleString("en-US")} of ${rows.length.toLocaleString("en-US")} rows shown: ` +
          `--json prints them all; add a LIMIT, or write them to Parquet with openmle workspace export)`
        : "";
    return output(false, rows, () => (rows.length ? formatTable(shown) + more : "(no rows)"));
  }
  if (rows.length === 0) return void process.stdout.write("[]\n");
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000).map((r) => `  ${jsonText(r, 2).replaceAll("\n", "\n  ")}`);
    const last = i + 1000 >= rows.length;
    process.stdout.write(`${i === 0 ? "[\n" : ""}${part.join(",\n")}${last ? "\n]\n" : ",\n"}`);
  }
}
