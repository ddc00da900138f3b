import { removeDeadProcessEntries } from "../util/index.js";

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
  return removeDeadProcessEntries(root, /^job-(\d+)-/);
}
