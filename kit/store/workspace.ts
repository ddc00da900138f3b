import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { DuckDBDataChunk, DuckDBInstance, type DuckDBConnection, type DuckDBType } from "@duckdb/node-api";
import { ColumnWriter, UnsupportedColumnTypeError, type Columns } from "./column-writer.js";
import { NotAWorkspaceError, ReadOnlyWorkspaceError, WorkspaceClosedError, WorkspaceError } from "./errors.js";
import { acquireWriterLock, type WriterLock } from "./lock.js";
import { migrate } from "./migrate.js";
import type { OpenOptions } from "./open-options.js";
import { classifyOpenError } from "./open-error.js";
import { quoteIdent } from "./quote-ident.js";
import { memorySetting, type QueryLimits } from "./query-limits.js";
import { CONFINED_SETTINGS, readOnlyStatement } from "./read-only-statement.js";
import { toPlain, type Params, type Row } from "./values.js";
import { verifyTables, type VerifyReport } from "./verify-tables.js";
import { DB_FILE, LOCK_FILE } from "./workspace-files.js";

/** DuckDB's vector size: the appender takes whole data chunks of at most this many rows. */
const CHUNK_ROWS = 2048;
/** Writer handles this process holds, by folder (see `Workspace.open`, step 2). */
const writersInProcess = new Map<string, Workspace>();

/**
 * A workspace: one folder, one DuckDB database, one writer at a time.
 * Every query returns plain rows (see values.ts) that go straight into notebooks.
 */
export class Workspace {
  private columnCache = new Map<string, { names: string[]; types: DuckDBType[] }>();
  /** Why this handle is closed; null while open. */
  private closedBecause: string | null = null;
  /** Statements running on the connection (a take-over waits for them before closing). */
  private readonly running = new Set<Promise<unknown>>();

  private constructor(
    readonly dir: string,
    readonly readOnly: boolean,
    readonly schemaVersion: number,
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    private readonly lock: WriterLock | null,
    /** A read-only handle's statement limits (OpenOptions.limits). */
    private readonly limits: QueryLimits = {},
  ) {}

  get dbPath(): string {
    return join(this.dir, DB_FILE);
  }

  static async open(dirIn: string, opts: OpenOptions = {}): Promise<Workspace> {
    const dir = resolve(dirIn);
    const readOnly = opts.readOnly ?? false;
    const create = opts.create ?? !readOnly;
    const dbPath = join(dir, DB_FILE);

    // 1. Refuse folders that are not workspaces before touching anything.
    if (existsSync(dir) && !statSync(dir).isDirectory()) {
      throw new NotAWorkspaceError(`${dir} is a file, not a workspace folder. Pass a folder path.`, dir);
    }
    if (!existsSync(dbPath)) {
      const empty = !existsSync(dir) || readdirSync(dir).length === 0;
      if (!create || !empty) {
        throw new NotAWorkspaceError(
          `${dir} is not an OpenMLE workspace (no ${DB_FILE}). ` +
            (empty ? "Open it without readOnly to create one." : "Pick an empty or new folder to create a workspace."),
          dir,
        );
      }
      mkdirSync(dir, { recursive: true });
    }

    // 2. A writer handle this process already holds on this folder (a re-run notebook cell's) is
    //    closed once its running statement ends; its later calls throw WorkspaceClosedError.
    if (!readOnly)
      await writersInProcess
        .get(dir)
        ?.closeFor("the workspace was opened again for writing in this process (a re-run notebook cell?)");
    // 3. Take the writer lock, then open DuckDB (its own file lock is the backstop).
    const lock = readOnly ? null : acquireWriterLock(join(dir, LOCK_FILE), dir);
    let instance: DuckDBInstance | undefined;
    try {
      // The memory limit comes before the confined settings, which lock the configuration.
      instance = await DuckDBInstance.create(dbPath, {
        ...(readOnly ? { access_mode: "READ_ONLY" } : {}),
        ...memorySetting(opts.limits),
        ...(opts.confined ? CONFINED_SETTINGS : {}),
      });
      const conn = await instance.connect();
      // 4. Bring the schema forward (read-only handles only check it).
      const version = await migrate(conn, dir, readOnly);
      const ws = new Workspace(dir, readOnly, version, instance, conn, lock, opts.limits);
      if (!readOnly) writersInProcess.set(dir, ws);
      if (opts.verify) await ws.verify();
      return ws;
    } catch (e) {
      instance?.closeSync();
      lock?.release();
      throw classifyOpenError(e, dir);
    }
  }

  /** Run a statement without results (read-only handles: one SELECT only). */
  async exec(sql: string, params?: Params): Promise<void> {
    if (this.readOnly) await readOnlyStatement(this.live, this.dir, (st) => this.track(st), sql, params, this.limits);
    else await this.track(this.live.run(sql, params as never));
  }

  /** Run a query; rows as plain JS objects. Read-only handles run exactly one SELECT statement. */
  async query<T = Row>(sql: string, params?: Params): Promise<T[]> {
    const rows = this.readOnly
      ? await readOnlyStatement(this.live, this.dir, (st) => this.track(st), sql, params, this.limits)
      : (await this.track(this.live.runAndReadAll(sql, params as never))).getRowObjectsJS();
    return rows.map((r) => toPlain(r) as T);
  }

  /** Column names and DuckDB types of a query's result (used by the Arrow bridge). */
  async queryColumns(
    sql: string,
    params?: Params,
  ): Promise<{ names: string[]; types: DuckDBType[]; columns: unknown[][] }> {
    const reader = await this.track(this.live.runAndReadAll(sql, params as never));
    return { names: reader.columnNames(), types: reader.columnTypes(), columns: reader.getColumnsJS() as unknown[][] };
  }

  /** Read every block of table data, so DuckDB verifies its checksums (see verify-tables.ts). */
  verify(): Promise<VerifyReport> {
    return verifyTables(
      this.dir,
      () => this.live,
      (st) => this.track(st),
    );
  }

  /** Run `fn` in one transaction: all of its writes land, or none. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.exec("BEGIN TRANSACTION");
    try {
      const out = await fn();
      await this.exec("COMMIT");
      return out;
    } catch (e) {
      if (!this.closedBecause) await this.track(this.conn.run("ROLLBACK"));
      throw e;
    }
  }

  /** Columns of a table, in order (cached; call `forgetColumns` after ALTER). */
  async columns(table: string): Promise<{ names: string[]; types: DuckDBType[] }> {
    let cols = this.columnCache.get(table);
    if (!cols) {
      const reader = await this.track(this.live.runAndReadAll(`SELECT * FROM ${quoteIdent(table)} LIMIT 0`));
      cols = { names: reader.columnNames(), types: reader.columnTypes() };
      this.columnCache.set(table, cols);
    }
    return cols;
  }

  forgetColumns(table?: string): void {
    if (table) this.columnCache.delete(table);
    else this.columnCache.clear();
  }

  /**
   * Bulk insert of row objects: turned into columns, then `appendColumns`. Missing fields are
   * NULL, except `created_at`, which gets the current time. Unknown fields are an error (typos lose data).
   */
  async append(table: string, rows: readonly Row[]): Promise<number> {
    this.assertWritable(`append(${table})`);
    if (rows.length === 0) return 0;
    const { names } = await this.columns(table);
    this.checkNames(table, Object.keys(rows[0]!), names);
    const columns: Columns = {};
    for (const name of names) {
      const col = new Array(rows.length);
      let given = false;
      for (let r = 0; r < rows.length; r++) {
        const v = rows[r]![name];
        col[r] = v;
        if (v !== undefined) given = true;
      }
      if (given) columns[name] = col;
    }
    return this.appendColumns(table, columns);
  }

  /**
   * Bulk insert of columns (one array per column, typed arrays welcome) through DuckDB's appender,
   * a data chunk at a time, written straight into DuckDB's vectors (see column-writer.ts).
   * Missing columns and null entries are NULL, except `created_at`, which gets the current time.
   * Unknown columns and arrays of different lengths are errors. Returns the number of rows.
   */
  async appendColumns(table: string, columns: Columns): Promise<number> {
    this.assertWritable("append");
    const { names, types } = await this.columns(table);
    const given = Object.keys(columns);
    this.checkNames(table, given, names);
    const lengths = new Set(given.map((k) => columns[k]!.length));
    if (lengths.size > 1) {
      throw new WorkspaceError(
        `appendColumns(${table}): columns have different ` +
          `lengths (${given.map((k) => `${k}: ${columns[k]!.length}`).join(", ")}). Pass arrays of one length.`,
        this.dir,
      );
    }
    const rowCount = lengths.size ? [...lengths][0]! : 0;
    if (rowCount === 0) return 0;
    const createdAt = names.indexOf("created_at");
    const writer = new ColumnWriter(types, new Map(createdAt >= 0 ? [[createdAt, new Date()]] : []), names);
    const ordered = names.map((name) => columns[name]);
    const appender = await this.track(this.live.createAppender(table));
    try {
      for (let start = 0; start < rowCount; start += CHUNK_ROWS) {
        const n = Math.min(CHUNK_ROWS, rowCount - start);
        const chunk = DuckDBDataChunk.create(types, n);
        try {
          writer.fill(chunk, ordered, start, n);
        } catch (e) {
          if (e instanceof UnsupportedColumnTypeError)
            throw new WorkspaceError(`appendColumns(${table}): ${e.message}.`, this.dir);
          throw e;
        }
        appender.appendDataChunk(chunk);
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
    return rowCount;
  }

  private checkNames(table: string, given: readonly string[], names: readonly string[]): void {
    const known = new Set(names);
    for (const key of given) {
      if (!known.has(key)) {
        throw new WorkspaceError(
          `append(${table}): unknown column "${key}". Columns are: ${names.join(", ")}.`,
          this.dir,
        );
      }
    }
  }

  /** Close the handle and release the writer lock; later calls throw WorkspaceClosedError. Closing twice is harmless.
   */
  close(): void {
    if (this.closedBecause) return;
    this.refuseFurtherCalls("close() was called");
    this.release();
  }

  /**
   * Close for a newer handle on the same folder: refuse new calls now, let the statements already
   * running end (closing DuckDB under a running statement is unsafe), then close and release the lock.
   */
  private async closeFor(why: string): Promise<void> {
    if (this.closedBecause) return;
    this.refuseFurtherCalls(why);
    await Promise.allSettled([...this.running]);
    this.release();
  }

  private refuseFurtherCalls(why: string): void {
    this.closedBecause = why;
    if (writersInProcess.get(this.dir) === this) writersInProcess.delete(this.dir);
  }

  private release(): void {
    try {
      this.conn.closeSync();
      this.instance.closeSync();
    } finally {
      this.lock?.release();
    }
  }

  /** The connection, or WorkspaceClosedError once the handle is closed. */
  private get live(): DuckDBConnection {
    if (this.closedBecause) throw new WorkspaceClosedError(this.dir, this.closedBecause);
    return this.conn;
  }

  /** Record a statement as running until it settles. */
  private track<T>(statement: Promise<T>): Promise<T> {
    this.running.add(statement);
    const done = () => void this.running.delete(statement);
    statement.then(done, done);
    return statement;
  }

  private assertWritable(op: string): void {
    if (this.readOnly)
      throw new ReadOnlyWorkspaceError(
        `Workspace ${this.dir} is open read-only; ${op} writes. Open it without readOnly to write.`,
        this.dir,
      );
  }
}

/** Open (creating when new) a workspace folder. */
export function openWorkspace(dir: string, opts?: OpenOptions): Promise<Workspace> {
  return Workspace.open(dir, opts);
}
