import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pidAlive } from "../util/kill-tree.js";

/** Prefix of a temporary job folder: `job-<pid of the process that made it>-XXXXXX`. */
export const jobDirPrefix = (pid = process.pid) => `job-${pid}-`;

const swept = new Set<string>();

/**
 * Remove temporary job folders under `root` left by processes that died mid-job (kill -9 skips the
 * `finally` that removes them): only `job-<pid>-*` folders whose pid no longer exists, so folders of
 * live runs, kept job folders (`jobsDir`, named by execution id) and anything else stay. Runs once
 * per root per process (at its first job). Returns the folders removed.
 */
export function sweepStaleJobDirs(root: string): string[] {
  if (swept.has(root)) return [];
  swept.add(root);
  const removed: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = /^job-(\d+)-/.exec(name);
    if (!m || Number(m[1]) === process.pid || pidAlive(Number(m[1]))) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
      removed.push(join(root, name));
    } catch {
      /* not ours to remove (permissions): leave it */
    }
  }
  return removed;
}
