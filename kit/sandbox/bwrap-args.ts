import { finishArgs, isolationArgs } from "../jail/index.js";
import { SANDBOX_DATA_DIR, SANDBOX_WORKDIR } from "./executor.js";

/**
 * bubblewrap arguments for one job (pure apart from looking at which top-level system folders
 * are symlinks). Namespaces: user (uid 1000, no capabilities, no further user namespaces), pid
 * (the whole tree dies with it), net (no interfaces but its own loopback), ipc, uts, cgroup.
 * Mounts: /usr and /etc read-only, a private /tmp, a minimal /dev, /proc read-only (so no
 * /proc/sys knob can be written), no /sys, the public data read-only at /data, the job folder
 * writable at /workspace, a read-only root. Nothing else of the host, so data/private is simply
 * not there. bubblewrap must run as an unprivileged host user (see sandbox-user.ts): uid 1000
 * inside maps to that user, whose permissions decide every file access.
 */
export function bwrapArgs(opts: {
  jobDir: string;
  publicDir: string;
  env: Readonly<Record<string, string>>;
  command: readonly string[];
  gpuDevices?: readonly string[];
  systemDirs?: readonly string[];
  /** More host folders mounted read-only at the same path (the interpreter's virtualenv, see interpreter.ts). */
  readOnlyDirs?: readonly string[];
  /** The child's fd holding the uid-quota seccomp filter (openUidQuotaFilter), when there is one. */
  seccompFd?: number;
  /** The child's fd for `--json-status-fd` (its exit-code line says the command itself started). */
  statusFd?: number;
}): string[] {
  const a = isolationArgs(opts.systemDirs);
  if (opts.seccompFd !== undefined) a.push("--seccomp", String(opts.seccompFd));
  if (opts.statusFd !== undefined) a.push("--json-status-fd", String(opts.statusFd));
  for (const d of opts.readOnlyDirs ?? []) a.push("--ro-bind", d, d);
  for (const d of opts.gpuDevices ?? []) a.push("--dev-bind", d, d);
  a.push(
    "--ro-bind",
    opts.publicDir,
    SANDBOX_DATA_DIR,
    "--bind",
    opts.jobDir,
    SANDBOX_WORKDIR,
    "--chdir",
    SANDBOX_WORKDIR,
  );
  return finishArgs(a, opts.env, opts.command);
}
