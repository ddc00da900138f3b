import { existsSync } from "node:fs";
import { extname, resolve } from "node:path";
import { WorkspaceError } from "./errors.js";
import { AFTER_IMPORT, importSelectList } from "./import-upgrades.js";
import { quoteIdent } from "./quote-ident.js";
import type { Workspace } from "./workspace.js";

function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** Export a table name or a SELECT to a Parquet file (DuckDB writes it natively). */
export async function exportParquet(ws: Workspace, tableOrQuery: string, file: string): Promise<string> {
  return exportTable(ws, tableOrQuery, file, "parquet");
}

/** The formats `exportTable` writes. */
export const EXPORT_FORMATS = ["parquet", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The format a file's name asks for: `.csv` → csv, `.parquet` / `.pq` → parquet; null for any other name. */
export function formatOfFile(file: string): ExportFormat | null {
  const ext = extname(file).toLowerCase();
  return ext === ".csv" ? "csv" : ext === ".parquet" || ext === ".pq" ? "parquet" : null;
}

/** Export a table name or a SELECT to Parquet or CSV (with a header row); DuckDB writes both natively. */
export async function exportTable(
  ws: Workspace,
  tableOrQuery: string,
  file: string,
  format: ExportFormat,
): Promise<string> {
  const source = /^\s*(select|with)\b/i.test(tableOrQuery) ? `(${tableOrQuery})` : quoteIdent(tableOrQuery);
  const out = resolve(file);
  const how = format === "csv" ? "FORMAT csv, HEADER" : "FORMAT parquet";
  await ws.queryColumns(`COPY ${source} TO ${sqlString(out)} (${how})`);
  return out;
}

/**
 * Import a Parquet file: append into an existing table (columns by name) or create it. An export of an older
 * schema version appends too: renamed columns map to their new names, derived columns are filled
 * (import-upgrades.ts).
 */
export async function importParquet(
  ws: Workspace,
  file: string,
  table: string,
  opts: { create?: boolean } = {},
): Promise<number> {
  const path = resolve(file);
  if (!existsSync(path)) throw new WorkspaceError(`importParquet: no such file ${path}.`, ws.dir);
  const src = `read_parquet(${sqlString(path)})`;
  const [{ n }] = await ws.query<{ n: number }>(`SELECT count(*) AS n FROM ${src}`);
  if (opts.create) {
    await ws.exec(`CREATE TABLE ${quoteIdent(table)} AS SELECT * FROM ${src}`);
  } else {
    const columns = (await ws.query<{ column_name: string }>(`DESCRIBE SELECT * FROM ${src}`)).map(
      (c) => c.column_name,
    );
    await ws.exec(`INSERT INTO ${quoteIdent(table)} BY NAME SELECT ${importSelectList(table, columns)} FROM ${src}`);
    for (const stmt of AFTER_IMPORT[table] ?? []) await ws.exec(stmt);
  }
  ws.forgetColumns(table);
  return n;
}
