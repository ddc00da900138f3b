// Terminal formatting shared by the CLI's human output (`--json` prints values whole).
import { getBorderCharacters, table } from "table";
import { formatNumber as reportNumber } from "../report/index.js";
import { printableLine } from "../util/index.js";

/** Widest a table cell gets before it is cut; the cut is marked so nobody mistakes it for the value. */
export const MAX_CELL = 60;

/** A number for people: up to 6 significant digits, no trailing noise; null/NaN as "—". */
export function formatNumber(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  if (Number.isInteger(v)) return String(v);
  const abs = Math.abs(v);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e9)) return v.toExponential(3);
  return String(Number(v.toPrecision(6)));
}

/**
 * A metric's score for people, by the one rule the report and the dashboard use too (kit/report's
 * formatNumber): 4 significant digits below 1000 (3.0516310413505203 → 3.052), whole numbers from 1000
 * up, with thousands separators; null/NaN as "—". `--json` prints the full value.
 */
export function formatScore(v: number | null | undefined): string {
  return v === null || v === undefined ? "—" : (reportNumber(v) ?? "—");
}

/**
 * One cell as text on one line: numbers for people, objects as compact JSON, newlines shown as ⏎, other
 * control characters escaped (printableLine: a cell may hold what a program wrote).
 */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return formatNumber(v);
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  return printableLine(s.replace(/\r?\n/g, "⏎"));
}

/** Columns separated by two spaces, a dashed rule under the header, no box. */
const PLAIN = { ...getBorderCharacters("void"), bodyJoin: "  ", headerJoin: "  ", joinBody: "-", joinJoin: "  " };

/**
 * A plain-text table for terminal output (the `table` package lays it out); cells longer than
 * MAX_CELL are cut with "…" (`--json` gives everything).
 */
export function formatTable(rows: readonly Record<string, unknown>[]): string {
  const cols = Object.keys(rows[0] ?? {});
  if (cols.length === 0) return "";
  const data = [cols, ...rows.map((r) => cols.map((c) => cellText(r[c])))];
  // A reduce, not Math.max(...): spreading a million cells overflows the call stack (workspace query's rows).
  const widest = (i: number) => data.reduce((m, row) => Math.max(m, row[i]!.length), 1);
  const widths = cols.map((_, i) => Math.min(MAX_CELL, widest(i)));
  const out = table(data, {
    border: PLAIN,
    columns: widths.map((width) => ({ width, truncate: MAX_CELL, paddingLeft: 0, paddingRight: 0 })),
    drawHorizontalLine: (i) => i === 1,
    drawVerticalLine: (i, n) => i > 0 && i < n,
  });
  return out
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trimEnd();
}
