/**
 * Base class of every workspace error: each names the path and says what to do. The store imports
 * nothing of the kit, so this mirrors kit/util's KitError (userFacing, the class's own name).
 */
export class WorkspaceError extends Error {
  readonly userFacing = true;
  constructor(
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The folder exists and holds files, but no workspace database. */
export class NotAWorkspaceError extends WorkspaceError {}

/** The database was written by a newer kit (higher schema version). */
export class NewerSchemaError extends WorkspaceError {
  constructor(
    path: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `Workspace ${path} has schema version ${found}, but this kit understands up to ${supported}. ` +
        `Upgrade the kit (npm install openmle@latest) to open it; the file was not touched.`,
      path,
    );
  }
}

/** The database file cannot be read as DuckDB (truncated, overwritten, not a database). */
export class CorruptWorkspaceError extends WorkspaceError {}

/** Another process (or another handle in this process) is writing the workspace. */
export class WorkspaceLockedError extends WorkspaceError {
  constructor(
    path: string,
    readonly holder: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Workspace ${path} is already open for writing by ${holder}. Only one writer at a time: ` +
        `wait for it to finish, close it, or open this workspace with { readOnly: true } once it is closed.`,
      path,
      options,
    );
  }
}

/** A call on a handle that was closed, by `close()` or by a newer writer handle on the same folder in this process. */
export class WorkspaceClosedError extends WorkspaceError {
  constructor(
    path: string,
    readonly reason: string,
  ) {
    super(
      `Workspace ${path}: this handle is closed (${reason}). Use the handle the latest openWorkspace ` +
        `call returned, or open the workspace again.`,
      path,
    );
  }
}

/** A write was attempted on a handle opened read-only. */
export class ReadOnlyWorkspaceError extends WorkspaceError {}

/** Which limit of a read-only handle a statement hit (OpenOptions.limits). */
export type QueryLimit = "time" | "memory" | "result";

/**
 * A statement of a read-only handle ran past one of its limits (OpenOptions.limits) and was stopped: `limit`
 * says which, `value` its setting (ms for time, MiB for memory and result).
 */
export class QueryLimitError extends WorkspaceError {
  constructor(
    path: string,
    readonly limit: QueryLimit,
    readonly value: number,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    const what = {
      time: `ran past its time limit of ${value / 1000} s and was interrupted`,
      memory: `needed more than its memory limit of ${value} MiB and was stopped (${detail})`,
      result: `returned more than its memory limit of ${value} MiB of rows (${detail})`,
    }[limit];
    const raise = limit === "time" ? "limits.timeoutMs" : "limits.memoryMb";
    super(
      `Workspace ${path}: the query ${what}. Narrow it (a WHERE, a LIMIT) or open it with a larger ${raise}.`,
      path,
      options,
    );
  }
}
