// Path flags of the CLI (--code, --config, --script, a spec, a submission …): a path that is missing, a
// folder, not a regular file, unreadable or too large is one usage error naming the flag, never a Node
// stack (EISDIR, EACCES, ERR_FS_FILE_TOO_LARGE).
import { readFileSync, statSync } from "node:fs";
import { UsageError } from "./run-cli.js";

/** The largest file the CLI reads into memory (programs, settings, specs, scripts are far smaller). */
export const MAX_FLAG_FILE_BYTES = 64 * 2 ** 20;

/**
 * Why `path` cannot be read as a file, or null when it is a regular file of at most `maxBytes`: "no
 * such file", "a folder, not a file", "not a regular file" (a FIFO would block the read forever),
 * "permission denied", "too large (… MiB; at most … MiB)". Reading it can still fail (a race); readFileFlag
 * catches that too.
 */
export function fileProblem(path: string, maxBytes = MAX_FLAG_FILE_BYTES): string | null {
  try {
    const st = statSync(path);
    if (st.isDirectory()) return "a folder, not a file";
    if (!st.isFile()) return "not a regular file";
    if (st.size > maxBytes) return `too large (${mib(st.size)} MiB; at most ${mib(maxBytes)} MiB)`;
    return null;
  } catch (e) {
    return errnoText(e);
  }
}

const mib = (bytes: number) => String(Math.ceil(bytes / 2 ** 20));

function errnoText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "a folder, not a file";
  return (e as Error).message.split("\n")[0]!;
}

/** `flag path: why. pass` as a usage error (`pass` says what to give instead). */
const refuse = (flag: string, path: string, why: string, pass: string) =>
  new UsageError(`${flag} ${path}: ${why}. ${pass}`);

/**
 * Check that a path flag names a readable regular file (for a path the kit hands on, e.g. a submission
 * to its scorer); returns the path. `pass` ends the error, e.g. "Pass the path of a Python file.".
 */
export function fileFlag(flag: string, path: string, pass: string): string {
  const why = fileProblem(path, Number.MAX_SAFE_INTEGER);
  if (why) throw refuse(flag, path, why, pass);
  return path;
}

/** The UTF-8 text of the file a path flag names; every problem is one usage error (see fileProblem). */
export function readFileFlag(flag: string, path: string, pass: string): string {
  const why = fileProblem(path);
  if (why) throw refuse(flag, path, why, pass);
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw refuse(flag, path, errnoText(e), pass);
  }
}
