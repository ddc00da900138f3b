import { lstatSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { HostUser } from "./sandbox-user.js";

/**
 * Whether `user` can reach `path` (search permission on every folder above it and on it), from
 * the mode bits: bubblewrap, running as that user, must resolve the folders it binds. A task or
 * job folder under a private folder (e.g. /root, mode 0700) is not reachable and gets staged.
 */
export function reachableBy(user: HostUser, path: string): boolean {
  let p: string;
  try {
    p = realpathSync(path);
  } catch {
    return false;
  }
  for (;;) {
    const st = statSync(p);
    const bits = st.uid === user.uid ? (st.mode >> 6) & 7 : st.gid === user.gid ? (st.mode >> 3) & 7 : st.mode & 7;
    if (!(bits & 1)) return false;
    const up = dirname(p);
    if (up === p) return true;
    p = up;
  }
}

/** The temporary folder `user` can reach: TMPDIR, or /tmp when TMPDIR is private (e.g. a 0700 mkdtemp folder). */
export function stagingBase(user?: HostUser): string {
  return !user || reachableBy(user, tmpdir()) ? tmpdir() : "/tmp";
}

/**
 * An empty, root-owned folder the staging mounts go on (inside a private mount namespace only). It
 * must itself be reachable by the sandbox user, so a private TMPDIR (e.g. a 0700 mkdtemp folder)
 * falls back to /tmp.
 */
export function stagingPoint(user?: HostUser): string {
  const base = stagingBase(user);
  const dir = join(base, "openmle-stage");
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== 0)
    throw new Error(
      `${dir} must be a folder owned by ` +
        `root (found ${st.isSymbolicLink() ? "a symbolic link" : `uid ${st.uid}`}); remove it.`,
    );
  return dir;
}

/**
 * Command prefix (run as root) that makes `publicDir` and `jobDir` reachable for the unprivileged
 * sandbox user: in a private mount namespace (nothing propagates to the host and it vanishes with
 * the job), a small tmpfs goes on `point` and the two folders are bind-mounted at
 * `<point>/0` and `<point>/1` (stageBinds), then the rest of the command runs.
 */
export function stagePrefix(
  point: string,
  publicDir: string,
  jobDir: string,
): { prefix: string[]; publicDir: string; jobDir: string } {
  const s = stageBinds(point, [publicDir, jobDir]);
  return { prefix: s.prefix, publicDir: s.staged[0]!, jobDir: s.staged[1]! };
}

/**
 * The general form of stagePrefix: a command prefix (run as root) that, in a private mount namespace, puts a
 * small tmpfs on `point` and bind-mounts each of `paths` (files or folders) at `<point>/<i>`, then runs the
 * rest of the command. Returns the prefix and where each path can be reached (same order).
 */
export function stageBinds(point: string, paths: readonly string[]): { prefix: string[]; staged: string[] } {
  const script =
    'point=$1; n=$2; shift 2; i=0; mount -t tmpfs -o mode=0755,size=64k openmle-stage "$point" || exit 1; ' +
    'while [ "$i" -lt "$n" ]; do if [ -d "$1" ]; then mkdir "$point/$i"; else : > "$point/$i"; fi; ' +
    'mount --bind "$1" "$point/$i" || { echo "openmle-sandbox: cannot bind $1 for the sandbox user" >&2; exit 1; }; ' +
    'i=$((i + 1)); shift; done; exec "$@"';
  return {
    prefix: [
      "unshare",
      "--mount",
      "--propagation",
      "private",
      "--",
      "/bin/sh",
      "-c",
      script,
      "sh",
      point,
      String(paths.length),
      ...paths,
    ],
    staged: paths.map((_, i) => join(point, String(i))),
  };
}
