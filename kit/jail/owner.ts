import { chmodSync, lchownSync, lstatSync, readdirSync, rmSync, type Stats } from "node:fs";
import { join } from "node:path";
import type { HostUser } from "./sandbox-user.js";

/** Give a folder tree (no links followed) to `user`, so a jailed process running as that user can write it. */
export function giveTree(dir: string, user: HostUser): void {
  walk(dir, (p) => lchownSync(p, user.uid, user.gid));
}

/**
 * Take back what a jailed run left in a writable folder: entries owned by the sandbox account go back to
 * this process's user and lose set-uid/set-gid bits; anything that is not a regular file or a folder
 * (symbolic links, fifos, sockets, devices) is removed and listed, so no later host-side reader can be
 * pointed elsewhere by what the jailed code wrote. Returns the removed paths.
 */
export function reclaimTree(dir: string, user: HostUser | null): string[] {
  const removed: string[] = [];
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  walk(dir, (p, st) => {
    if (!st.isFile() && !st.isDirectory()) {
      rmSync(p, { force: true });
      removed.push(p);
      return false;
    }
    if (user && st.uid === user.uid) lchownSync(p, uid, gid);
    if (st.mode & 0o6000) chmodSync(p, st.mode & 0o1777);
    return true;
  });
  return removed;
}

/** Visit `dir` and everything under it (lstat, depth first); a visitor returning false skips that entry's subtree. */
function walk(dir: string, visit: (path: string, st: Stats) => boolean | void): void {
  const stack = [dir];
  while (stack.length) {
    const p = stack.pop()!;
    let st: Stats;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (visit(p, st) === false || !st.isDirectory()) continue;
    for (const n of readdirSync(p)) stack.push(join(p, n));
  }
}

/** Allocated bytes of a tree (no links followed). */
export function treeBytes(dir: string): number {
  let bytes = 0;
  walk(dir, (_p, st) => {
    bytes += st.blocks * 512;
  });
  return bytes;
}

/**
 * Hand a copy the kit made to `user` read-only: every entry owned by that account and readable by it alone (folders
 * 0500, files 0400, or 0500 when executable; links keep their target). Other local users get nothing: not through
 * the group (the account's group may be shared, e.g. nogroup), not through the other bits.
 */
export function giveReadOnly(dir: string, user: HostUser): void {
  const gid = process.getgid?.() ?? 0;
  walk(dir, (p, st) => {
    lchownSync(p, user.uid, gid);
    if (st.isDirectory()) chmodSync(p, 0o500);
    else if (st.isFile()) chmodSync(p, st.mode & 0o100 ? 0o500 : 0o400);
  });
}
