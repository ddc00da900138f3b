import { chmodSync, chownSync, cpSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { removeDeadProcessEntries } from "../util/index.js";
import { JailError } from "./errors.js";
import { giveReadOnly, treeBytes } from "./owner.js";
import type { JailMount } from "./run-jailed.js";
import type { HostUser } from "./sandbox-user.js";
import { stagingBase } from "./stage-mounts.js";

/** Past this, an input the sandbox account cannot read is refused instead of copied. */
const MAX_COPY_BYTES = 256 * 1024 * 1024;

/**
 * Read-only inputs the sandbox account cannot read itself (e.g. a file in a mode-0700 mkdtemp folder; staging
 * only fixes the folders above a mount) are copied into a fresh folder and that copy is mounted at the original
 * path. The copy is readable by the sandbox account only (owner.ts giveReadOnly): it is made inside a mode-0700
 * folder, handed over, and only then is the folder opened to that account (0500), so no other local user can
 * read the input at any moment. Up to MAX_COPY_BYTES in all; past it a JailError says how to make the input
 * readable.
 */
export function readableCopies(user: HostUser, mounts: readonly JailMount[]): Map<string, string> {
  const copies = new Map<string, string>();
  let bytes = 0;
  for (const m of mounts) {
    if (m.writable || readableBy(user, m.path)) continue;
    const st = statSync(m.path);
    bytes += st.isDirectory() ? treeBytes(m.path) : st.size;
    if (bytes > MAX_COPY_BYTES) {
      removeCopies(copies);
      throw new JailError(
        `the jail runs as the unprivileged account "${user.name}", which cannot read ${m.path} ` +
          `(mode ${(st.mode & 0o777).toString(8)}, owner uid ${st.uid}), and it is too large to copy. Fix: ` +
          `chmod o+r${st.isDirectory() ? "X" : ""} ${m.path}, or keep it in a folder other users may read.`,
      );
    }
    sweepStaleCopies(stagingBase(user));
    const dir = mkdtempSync(join(stagingBase(user), `openmle-copy-${process.pid}-`)); // 0700, the kit's own
    const copy = join(dir, "c");
    copies.set(m.path, copy);
    try {
      cpSync(m.path, copy, { recursive: true, verbatimSymlinks: true });
      giveReadOnly(copy, user);
      chownSync(dir, user.uid, process.getgid?.() ?? 0);
      chmodSync(dir, 0o500);
    } catch (e) {
      removeCopies(copies);
      throw new JailError(`cannot copy ${m.path} for the jail's account "${user.name}": ${(e as Error).message}`, {
        cause: e,
      });
    }
  }
  return copies;
}

const swept = new Set<string>();

/**
 * Remove `openmle-copy-<pid>-*` folders under `base` whose process is gone (a run killed before its `finally`
 * removed its copies), once per base and process. Folders of live processes, and of the older unnamed form, stay.
 */
export function sweepStaleCopies(base: string): string[] {
  if (swept.has(base)) return [];
  swept.add(base);
  return removeDeadProcessEntries(base, /^openmle-copy-(\d+)-/);
}

/** Whether `user` may read `path` itself (a folder also needs search permission). */
function readableBy(user: HostUser, path: string): boolean {
  const st = statSync(path);
  const bits = st.uid === user.uid ? (st.mode >> 6) & 7 : st.gid === user.gid ? (st.mode >> 3) & 7 : st.mode & 7;
  const need = st.isDirectory() ? 5 : 4;
  return (bits & need) === need;
}

/** Remove the copies readableCopies made. */
export function removeCopies(copies: Map<string, string>): void {
  for (const c of copies.values()) rmSync(dirname(c), { recursive: true, force: true });
}
