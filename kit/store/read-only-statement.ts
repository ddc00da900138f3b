import { StatementType, type DuckDBConnection } from "@duckdb/node-api";
import { ReadOnlyWorkspaceError } from "./errors.js";
import { limitedRows, withTimeLimit, type QueryLimits } from "./query-limits.js";
import type { Params } from "./values.js";

/**
 * DuckDB settings of a confined handle (OpenOptions.confined), applied in this order: an empty temp_directory
 * (no spilling beside the database) must come before enable_external_access=false, which refuses to change it;
 * locking the configuration last makes the others permanent for the handle's lifetime.
 */
export const CONFINED_SETTINGS = {
  temp_directory: "",
  enable_external_access: "false",
  autoinstall_known_extensions: "false",
  autoload_known_extensions: "false",
  allow_community_extensions: "false",
  lock_configuration: "true",
} as const;

/**
 * A read-only handle runs one statement, and only a SELECT (DESCRIBE, SHOW, SUMMARIZE, PRAGMA
 * table_info are SELECTs). DuckDB's own parser splits and types the text, so comments, string
 * literals and `;` inside them cannot disguise a COPY, INSTALL, ATTACH or SET. `track` records the
 * parse and the run as running statements of the handle (a take-over waits for them). `limits`
 * (query-limits.ts) stop it past its time or memory; the rows come back as JS objects.
 */
export function readOnlyStatement(
  conn: DuckDBConnection,
  dir: string,
  track: <T>(statement: Promise<T>) => Promise<T>,
  sql: string,
  params?: Params,
  limits: QueryLimits = {},
): Promise<Record<string, unknown>[]> {
  return withTimeLimit(conn, dir, limits.timeoutMs, async (expired) => {
    const extracted = await track(conn.extractStatements(sql));
    const refuse = (why: string) =>
      new ReadOnlyWorkspaceError(
        `Workspace ${dir} is open read-only and runs one SELECT statement; ${why}. Open it without readOnly to write.`,
        dir,
      );
    if (extracted.count !== 1) throw refuse(`got ${extracted.count} statements`);
    let prepared;
    try {
      prepared = await extracted.prepare(0);
    } catch (e) {
      throw confinedError(e, dir);
    }
    if (prepared.statementType !== StatementType.SELECT)
      throw refuse(`got a ${StatementType[prepared.statementType] ?? "non-SELECT"} statement`);
    if (params) prepared.bind(params as never);
    try {
      return await track(limitedRows(prepared, dir, limits, expired));
    } catch (e) {
      throw confinedError(e, dir);
    }
  });
}

/** DuckDB's refusal of a file, network or settings access, as a workspace error (one CLI line). */
function confinedError(e: unknown, dir: string): unknown {
  const msg = e instanceof Error ? e.message : String(e);
  if (!/^(Permission Error|Invalid Input Error: Cannot change configuration)/.test(msg)) return e;
  return new ReadOnlyWorkspaceError(
    `Workspace ${dir} is open read-only and confined to its own tables: SQL on it cannot read or write files, ` +
      `use the network, load extensions or change settings (${msg.split("\n")[0]}).`,
    dir,
    { cause: e },
  );
}
