import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * The pid and every live descendant of it, from /proc (Linux). A process whose parent died is
 * adopted by init and is no longer found here, so callers keep the pids they saw earlier.
 */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // Field 4 (ppid) follows the command name, which is in parentheses and may hold spaces.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    out.push(p);
    todo.push(...(children.get(p) ?? []));
  }
  return out;
}

/** Send `signal` to each pid, ignoring those already gone. Returns how many were signalled. */
export function signalAll(pids: Iterable<number>, signal: NodeJS.Signals): number {
  let n = 0;
  for (const p of pids) {
    try {
      process.kill(p, signal);
      n++;
    } catch {
      /* already gone */
    }
  }
  return n;
}

/** True while a process with this pid exists (EPERM: it exists, owned by another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Remove the entries of `dir` whose name matches `pattern`, its first group the pid of the process that made them,
 * when that process no longer runs (never this process's): what a killed process left behind. Entries this user may
 * not remove stay. Returns the paths removed.
 */
export function removeDeadProcessEntries(dir: string, pattern: RegExp): string[] {
  const removed: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = name.match(pattern);
    if (!m || Number(m[1]) === process.pid || pidAlive(Number(m[1]))) continue;
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(join(dir, name));
    } catch {
      /* not ours to remove (permissions): leave it */
    }
  }
  return removed;
}
