import type { DuckDBConnection } from "@duckdb/node-api";
import { NewerSchemaError, WorkspaceError } from "./errors.js";
import { MIGRATIONS, type Migration } from "./schema.js";

/**
 * Bring a database to SCHEMA_VERSION, one migration per transaction.
 * 1. Read the version from schema_meta (0 when the table is missing: a new database).
 * 2. Refuse a newer version without writing anything.
 * 3. Apply each missing migration and bump the version inside the same transaction.
 */
export async function migrate(
  conn: DuckDBConnection,
  dir: string,
  readOnly: boolean,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number> {
  const SCHEMA_VERSION = migrations.length ? migrations[migrations.length - 1]!.version : 0;
  const hasMeta = await conn.runAndReadAll(
    "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'schema_meta'",
  );
  let version = 0;
  if (Number(hasMeta.getRowObjectsJS()[0]!.n) > 0) {
    const r = await conn.runAndReadAll("SELECT value FROM schema_meta WHERE key = 'schema_version'");
    version = Number(r.getRowObjectsJS()[0]?.value ?? 0);
  } else {
    const any = await conn.runAndReadAll("SELECT count(*) AS n FROM information_schema.tables");
    if (Number(any.getRowObjectsJS()[0]!.n) > 0) {
      throw new WorkspaceError(
        `${dir}: the database holds tables but no OpenMLE schema_meta; it was not made by this kit. ` +
          `Use another folder.`,
        dir,
      );
    }
  }
  if (version > SCHEMA_VERSION) throw new NewerSchemaError(dir, version, SCHEMA_VERSION);
  if (version === SCHEMA_VERSION) return version;
  if (readOnly) {
    throw new WorkspaceError(
      `${dir} has schema version ${version}; this kit needs ${SCHEMA_VERSION}. Open it once for writing to migrate it.`,
      dir,
    );
  }
  for (const m of migrations.filter((m) => m.version > version)) {
    await conn.run("BEGIN TRANSACTION");
    try {
      if (m.version === 1) await conn.run("CREATE TABLE schema_meta (key VARCHAR PRIMARY KEY, value VARCHAR)");
      for (const stmt of m.sql) await conn.run(stmt);
      await conn.run("INSERT OR REPLACE INTO schema_meta VALUES ('schema_version', $v)", { v: String(m.version) });
      await conn.run("COMMIT");
    } catch (e) {
      await conn.run("ROLLBACK");
      throw new WorkspaceError(
        `${dir}: migration ${m.version} (${m.description}) failed: ${(e as Error).message}`,
        dir,
        {
          cause: e,
        },
      );
    }
  }
  // Write the migrated schema into the database file at once: DuckDB cannot replay an ALTER TABLE
  // from its write-ahead log after a kill -9 ("Failure while replaying WAL file").
  await conn.run("CHECKPOINT");
  return SCHEMA_VERSION;
}
