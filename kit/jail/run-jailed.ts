import { randomUUID } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { processTree } from "../util/index.js";
import { blasPinEnv } from "./blas-kernels.js";
import { JobCgroup } from "./cgroup.js";
import { watchDiskQuota } from "./disk-quota.js";
import { JailError, JailUnavailableError } from "./errors.js";
import { closeFilter, openUidQuotaFilter } from "./uid-quota-filter.js";
import { interpreterPrefix } from "./interpreter.js";
import { finishArgs, isolationArgs } from "./isolation-args.js";
import { limitedCommand } from "./limited-command.js";
import { giveTree, reclaimTree } from "./owner.js";
import { readableCopies, removeCopies } from "./readable-copies.js";
import { probeBwrap } from "./probe-bwrap.js";
import { dropPrivilegesPrefix, sandboxHostUser, type HostUser } from "./sandbox-user.js";
import { reachableBy, stageBinds, stagingPoint } from "./stage-mounts.js";
import { bwrapSetupFailed, supervise } from "./supervise.js";

/** What one jailed run may use. */
export const JailLimits = z
  .object({
    /** Wall-clock seconds; past it the whole tree is killed. */
    timeoutS: z
      .number()
      .positive()
      .max(7 * 24 * 3600),
    /** Memory cap in MiB (a cgroup where the host has one, else RLIMIT_AS). */
    memoryMb: z
      .number()
      .positive()
      .max(1024 * 1024),
    /** Bytes (MiB) the run may leave in its writable folders, and the largest single file (RLIMIT_FSIZE). */
    diskMb: z
      .number()
      .positive()
      .max(16 * 1024 * 1024)
      .default(4096),
    /** Entries it may leave in its writable folders. */
    maxFiles: z.number().int().positive().default(1_000_000),
    /** Processes and threads at once (cgroup pids.max). */
    maxPids: z.number().int().positive().default(512),
    /** stdout/stderr kept per stream (the tail). */
    outputCapBytes: z
      .number()
      .int()
      .positive()
      .default(64 * 1024 * 1024),
  })
  .strict();
export type JailLimits = z.input<typeof JailLimits>;

/** A host file or folder the jailed command sees at the same path. */
export interface JailMount {
  readonly path: string;
  /** Default read-only. A writable folder is the only place the command's files can land. */
  readonly writable?: boolean;
}

export interface JailSpec {
  /** argv; argv[0] must be visible inside (under /usr, or an interpreter prefix, or a mount). */
  readonly command: readonly string[];
  readonly mounts: readonly JailMount[];
  readonly env?: Readonly<Record<string, string>>;
  /** Working folder inside the jail (default /tmp, a private tmpfs). */
  readonly cwd?: string;
  readonly limits: JailLimits;
  readonly signal?: AbortSignal;
  readonly bwrap?: string;
}

export interface JailResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly oomKilled: boolean;
  /** The disk-quota message when the writable folders went past limits.diskMb / maxFiles (the run was killed). */
  readonly diskQuota: string | null;
  /** Links and special files the run left in its writable folders; removed (see owner.ts). */
  readonly removed: readonly string[];
  /** bubblewrap itself failed (a mount, a namespace): not the command's doing. */
  readonly jailError: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallS: number;
}

/** null when runJailed can run here, else why not (bubblewrap missing, no user namespaces, no sandbox account). */
export function jailUnavailable(bwrap = "bwrap"): string | null {
  return probeBwrap(bwrap);
}

/**
 * Run a command in the jail the sandbox uses for programs: bubblewrap with user, pid, net, ipc, uts and
 * cgroup namespaces (no network, no capabilities, no further user namespaces), the system folders and the
 * given mounts read-only, a private /tmp, only the writable mounts writable; as the unprivileged sandbox
 * account when the kit runs as root (folders it cannot reach are staged, see stage-mounts.ts); in a cgroup
 * for memory and processes; killed with its whole tree past the time limit, the disk quota or the signal.
 * Everything the command started dies with it (it is PID 1 of its namespace).
 * 1. refuse when the jail cannot be had (JailUnavailableError says why and how to fix it);
 * 2. hand the writable folders to the sandbox account; stage what it cannot reach;
 * 3. run under the limits; 4. take the writable folders back, removing links and special files.
 */
export async function runJailed(spec: JailSpec): Promise<JailResult> {
  const limits = JailLimits.parse(spec.limits);
  const bwrap = spec.bwrap ?? "bwrap";
  const why = probeBwrap(bwrap);
  if (why) throw new JailUnavailableError(`the jail needs bubblewrap: ${why}`);
  const user = sandboxHostUser();
  for (const m of spec.mounts)
    if (!existsSync(m.path)) throw new JailError(`cannot mount ${m.path} in the jail: it does not exist`);
  const copies = user ? readableCopies(user, spec.mounts) : new Map<string, string>();
  const writable = spec.mounts.filter((m) => m.writable).map((m) => m.path);
  if (user) for (const w of writable) giveTree(w, user);
  const cg = JobCgroup.create(`${process.pid}-${randomUUID()}`, limits.memoryMb, limits.maxPids);
  const quotaKill = new AbortController();
  const signal = spec.signal ? AbortSignal.any([spec.signal, quotaKill.signal]) : quotaKill.signal;
  // Its processes, for the deleted files they keep open: the cgroup, else the tree under the child.
  let rootPid = 0;
  const pids = () => (cg ? cg.pids() : rootPid > 0 ? processTree(rootPid) : []);
  const quota = watchDiskQuota(
    writable,
    { maxBytes: limits.diskMb * 1024 * 1024, maxFiles: limits.maxFiles },
    () => quotaKill.abort(),
    { pids, intervalMs: 500 },
  );
  // Filled in `finally` (after the run, before the caller sees the result): the same array is returned.
  const removed: string[] = [];
  const filter = openUidQuotaFilter();
  try {
    const [cmd, args] = limitedCommand(
      cg,
      { fsizeBytes: Math.round(limits.diskMb * 1024 * 1024), asBytes: Math.round(limits.memoryMb * 1024 * 1024) },
      jailCommand(spec, user, bwrap, copies, filter === null ? null : 3),
    );
    const r = await supervise({
      command: cmd,
      args,
      env: { PATH: "/usr/bin:/bin" },
      timeoutS: limits.timeoutS,
      outputCapBytes: limits.outputCapBytes,
      signal,
      killTree: cg ? () => cg.killAll() : undefined,
      extraFds: filter === null ? [] : [filter],
      statusPipe: true,
      onSpawn: (pid) => (rootPid = pid),
    });
    if (cg) await cg.killAll();
    const diskQuota = await quota.stop();
    const stats = cg?.stats();
    const jailFailed = bwrapSetupFailed(r); // a package's code cannot pass its failure off as the jail's (issue 59)
    return {
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut: r.timedOut,
      oomKilled: !r.timedOut && (stats?.oomKills ?? 0) > 0,
      diskQuota,
      removed,
      jailError: r.spawnError ?? (jailFailed ? r.stderr.trim().slice(0, 2000) : null),
      stdout: r.stdout,
      stderr: r.stderr,
      wallS: r.wallS,
    };
  } finally {
    closeFilter(filter);
    await quota.stop();
    cg?.remove();
    for (const w of writable) removed.push(...reclaimTree(w, user));
    removeCopies(copies);
  }
}

/** The full command line: [staging as root] [drop to the sandbox account] bwrap <args> -- command. */
function jailCommand(
  spec: JailSpec,
  user: HostUser | null,
  bwrap: string,
  copies: Map<string, string>,
  seccompFd: number | null,
): string[] {
  const prefix: string[] = [];
  // Parents before children, so a writable folder inside a read-only one is mounted on top of it.
  const mounts = [...spec.mounts].sort((a, b) => a.path.length - b.path.length);
  let sources = mounts.map((m) => copies.get(m.path) ?? m.path);
  if (user) {
    const unreachable = mounts.filter(
      (m) => !copies.has(m.path) && !reachableBy(user, isDir(m.path) ? m.path : dirname(m.path)),
    );
    if (unreachable.length) {
      const s = stageBinds(
        stagingPoint(user),
        unreachable.map((m) => m.path),
      );
      prefix.push(...s.prefix);
      sources = mounts.map((m) => {
        const i = unreachable.indexOf(m);
        return i < 0 ? (copies.get(m.path) ?? m.path) : s.staged[i]!;
      });
    }
    prefix.push(...dropPrivilegesPrefix(user));
  }
  const a = isolationArgs();
  // the per-uid quota calls (uid-quota-filter.ts); the status pipe is the fd after it
  if (seccompFd !== null) a.push("--seccomp", String(seccompFd));
  a.push("--json-status-fd", String(seccompFd === null ? 3 : seccompFd + 1));
  const python = interpreterPrefix(spec.command[0] ?? "");
  if (python) a.push("--ro-bind", python, python);
  mounts.forEach((m, i) => a.push(m.writable ? "--bind" : "--ro-bind", sources[i]!, m.path));
  a.push("--chdir", spec.cwd ?? "/tmp");
  const env = { PATH: "/usr/bin:/bin", HOME: "/tmp", TMPDIR: "/tmp", LANG: "C.UTF-8", ...blasPinEnv(), ...spec.env };
  return [...prefix, bwrap, ...finishArgs(a, env, spec.command)];
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
