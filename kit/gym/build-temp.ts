// The temporary folder a build fills beside its output: private while it holds the answers, and named for the
// process that made it, so the next build of the same output can tell a killed build's leftovers from a live one's.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** When `pid` started (clock ticks since boot, /proc/<pid>/stat field 22), or null when no such process runs. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    try {
      process.kill(pid, 0); // no /proc: fall back to whether the pid exists
      return "";
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "EPERM" ? "" : null;
    }
  }
}

/**
 * Make `<out>.tmp-<pid>-<start>-<random>` beside `out`, mode 0700: a killed build leaves the private answers in it,
 * which no other local user may read. Returns the folder and the mode a new folder gets here (to restore on the
 * finished package, which is published as before).
 */
export function makeBuildTemp(out: string): { tmp: string; mode: number } {
  const tmp = `${out}.tmp-${process.pid}-${processStart(process.pid) || 0}-${Math.random().toString(36).slice(2, 8)}`;
  mkdirSync(tmp);
  const mode = statSync(tmp).mode & 0o777; // what the umask gives; the folder is still empty
  chmodSync(tmp, 0o700);
  return { tmp, mode };
}

/**
 * Remove `<out>.tmp-*` folders whose build is gone: the process named in the folder no longer runs, or a process
 * with that pid started at another time (the pid was reused). A live build's folder is kept. Folders of the older
 * form `<out>.tmp-<pid>-<random>` (no start time) go when their pid does not run. A `<out>.old-<pid>-<ms>` folder
 * (the previous package, moved aside by a `--force` build killed before its second rename) is put back when `out`
 * is missing, else removed. Returns the folders removed or put back.
 */
export function removeStaleBuildTemps(out: string): string[] {
  const parent = dirname(out);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const kind = name.startsWith(`${basename(out)}.tmp-`)
      ? "tmp"
      : name.startsWith(`${basename(out)}.old-`)
        ? "old"
        : null;
    if (!kind) continue;
    const m = /^(\d+)-(?:(\d+)-)?[a-z0-9]+$/.exec(name.slice(basename(out).length + 5));
    if (!m) continue;
    const start = processStart(Number(m[1]));
    const alive =
      start !== null && (kind === "old" || m[2] === undefined || start === "" || start === m[2] || m[2] === "0");
    if (alive) continue;
    if (kind === "old" && !existsSync(out)) renameSync(join(parent, name), out);
    else rmSync(join(parent, name), { recursive: true, force: true });
    removed.push(join(parent, name));
  }
  return removed;
}
