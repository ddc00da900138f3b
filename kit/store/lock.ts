import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { WorkspaceLockedError } from "./errors.js";

/**
 * A writer lock file beside the database. DuckDB itself refuses a second process
 * (fcntl lock), but its message is cryptic and it cannot see two handles in one
 * process; this file gives both cases one clear error naming the holder.
 */
const heldInProcess = new Set<string>();

export interface WriterLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function acquireWriterLock(lockPath: string, workspace: string): WriterLock {
  if (heldInProcess.has(lockPath)) {
    throw new WorkspaceLockedError(workspace, `another handle in this process (pid ${process.pid})`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, JSON.stringify({ pid: process.pid, argv: process.argv.slice(1, 4), at: new Date().toISOString() }));
      closeSync(fd);
      heldInProcess.add(lockPath);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldInProcess.delete(lockPath);
          rmSync(lockPath, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      let holder: { pid?: number; argv?: string[] } = {};
      try {
        holder = JSON.parse(readFileSync(lockPath, "utf8"));
      } catch {
        // A half-written lock file: treat as held by an unknown live process once, then stale.
      }
      if (holder.pid && holder.pid !== process.pid && alive(holder.pid)) {
        throw new WorkspaceLockedError(workspace, `pid ${holder.pid} (${(holder.argv ?? []).join(" ")})`);
      }
      // Stale lock from a process that died (kill -9): DuckDB's WAL makes the data safe; retake it.
      rmSync(lockPath, { force: true });
    }
  }
  throw new WorkspaceLockedError(workspace, "an unknown process (lock file keeps reappearing)");
}
