import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { WorkspaceError } from "./errors.js";
import { AFTER_IMPORT, importSelectList } from "./import-upgrades.js";
import { quoteIdent } from "./quote-ident.js";
import type { Workspace } from "./workspace.js";

function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** Export a table name or a SELECT to a Parquet file (DuckDB writes it natively). */
export async function exportParquet(ws: Workspace, tableOrQuery: string, file: string): Promise<string> {
  const source = /^\s*(select|with)\b/i.test(tableOrQuery) ? `(${tableOrQuery})` : quoteIdent(tableOrQuery);
  const out = resolve(file);
  await ws.queryColumns(`COPY ${source} TO ${sqlString(out)} (FORMAT parquet)`);
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
