import { CorruptWorkspaceError, WorkspaceError, WorkspaceLockedError } from "./errors.js";
import { DB_FILE } from "./workspace-files.js";

/**
 * DuckDB's error at open as a workspace error: another process's file lock, or a file that is
 * not a readable database. Anything else is passed on unchanged.
 */
export function classifyOpenError(e: unknown, dir: string): unknown {
  if (e instanceof WorkspaceError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  if (/Could not set lock|Conflicting lock/i.test(msg)) {
    const pid = /PID (\d+)/.exec(msg)?.[1];
    return new WorkspaceLockedError(dir, pid ? `pid ${pid}` : "another process", { cause: e });
  }
  const corrupt = /not a valid DuckDB database|Serialization|Corrupt|checksum|file is not/i;
  if (corrupt.test(msg) || /IO Error: Could not read|database file/i.test(msg)) {
    return new CorruptWorkspaceError(
      `Workspace ${dir}: ${DB_FILE} cannot be read as a DuckDB database (${msg.split("\n")[0]}). ` +
        `The file was left untouched: restore it from a backup or Parquet export, or move it away ` +
        `and open a new workspace.`,
      dir,
      { cause: e },
    );
  }
  return e;
}
