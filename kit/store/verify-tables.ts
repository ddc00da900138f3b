import type { DuckDBConnection } from "@duckdb/node-api";
import { CorruptWorkspaceError } from "./errors.js";
import { quoteIdent } from "./quote-ident.js";
import { DB_FILE } from "./workspace-files.js";

/** What `Workspace.verify` read. */
export interface VerifyReport {
  readonly tables: number;
  readonly rows: number;
}

/**
 * Read every column of every table, so DuckDB checks the checksum of each block of table data
 * (it checks a block whenever it reads it from disk). Opening alone reads only the file header,
 * the database headers and the catalog's metadata blocks; garbage in a data block goes unnoticed
 * until a query touches it. Not covered: index blocks (read lazily by index lookups) and blocks
 * no table uses (never read). Throws CorruptWorkspaceError naming the first unreadable table.
 * `live` is the handle's connection (it throws once the handle is closed); `track` records each
 * statement as running.
 */
export async function verifyTables(
  dir: string,
  live: () => DuckDBConnection,
  track: <T>(statement: Promise<T>) => Promise<T>,
): Promise<VerifyReport> {
  const tables = (
    await track(
      live().runAndReadAll(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_type " +
          "= 'BASE TABLE' ORDER BY 1",
      ),
    )
  )
    .getRowObjectsJS()
    .map((r) => String(r.table_name));
  let rows = 0;
  for (const t of tables) {
    const conn = live(); // a closed handle says so, not that the table is unreadable
    try {
      // hash() of every column makes the scan read every column segment; count(*) alone would read none.
      const r = await track(conn.runAndReadAll(`SELECT count(*) AS n, sum(hash(COLUMNS(*))) FROM ${quoteIdent(t)}`));
      rows += Number(r.getRowObjectsJS()[0]!.n);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new CorruptWorkspaceError(
        `Workspace ${dir}: table ${t} in ${DB_FILE} cannot be read (${msg.split("\n")[0]}). ` +
          `The file was left untouched: restore it from a backup or a Parquet export.`,
        dir,
        { cause: e },
      );
    }
  }
  return { tables: tables.length, rows };
}
