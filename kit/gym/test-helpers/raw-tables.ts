import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../python.js";

/** Real raw tables for tests, read from the vega-datasets npm package and written as CSV. */
export type Row = Record<string, string | number | null>;

const snake = (s: string) => s.replace(/\(([^)]*)\)/g, "$1").replace(/[^0-9a-zA-Z]+/g, "_").replace(/^_|_$/g, "").toLowerCase();

export function vegaRecords(file: string): Row[] {
  const dir = join(projectRoot(), "node_modules", "vega-datasets", "data");
  const rows = JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, unknown>[];
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [snake(k), (v ?? null) as string | number | null])));
}

export function writeCsv(file: string, rows: readonly Row[]): string {
  const cols = Object.keys(rows[0] ?? {});
  const cell = (v: unknown) => (v === null || v === undefined ? "" : /[",\n]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v));
  writeFileSync(file, [cols.join(","), ...rows.map((r) => cols.map((c) => cell(r[c])).join(","))].join("\n") + "\n");
  return file;
}
