import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chownSync, existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { SandboxUnavailableError } from "./errors.js";
import { bwrapArgs } from "./bwrap-args.js";
import {
  bwrapSetupFailed,
  closeFilter,
  dropPrivilegesPrefix,
  type HostUser,
  interpreterPrefix,
  JobCgroup,
  limitedCommand,
  nvidiaDevices,
  openUidQuotaFilter,
  probeBwrap,
  reachableBy,
  sandboxHostUser,
  sandboxPython,
  stagePrefix,
  stagingPoint,
  supervise,
  watchDiskQuota,
} from "../jail/index.js";
import {
  MAX_JOB_FILES,
  sandboxEnv,
  SANDBOX_DATA_DIR,
  SANDBOX_WORKDIR,
  type ExecResult,
  type ExecSpec,
  type Executor,
} from "./executor.js";
import { processTree } from "../util/index.js";

export const PYTHON = "/usr/bin/python3";

export interface LocalExecutorOptions {
  /** Python interpreter (default: sandboxPython(), i.e. OPENMLE_PYTHON or /usr/bin/python3); a virtualenv outside /usr
   * is mounted read-only at the same path. */
  readonly python?: string;
  readonly bwrap?: string;
  /**
   * Run without bubblewrap when it is missing: NO isolation (the program sees the host, the
   * network and data/private). Every run warns. Also enabled by OPENMLE_UNSAFE_SANDBOX=1.
   */
  readonly unsafe?: boolean;
  /** Use a per-job cgroup for the memory cap when the host allows (default true). */
  readonly cgroup?: boolean;
  /** Called with a warning on every unsafe run (in addition to the record's warnings). */
  readonly onWarning?: (message: string) => void;
}

export { probeBwrap };

export const UNSAFE_WARNING =
  "UNSAFE sandbox: bubblewrap is unavailable and unsafe mode is on, so this program runs with the host's network, " +
  "files (including data/private) and no memory cap other than RLIMIT_AS. Install bubblewrap " +
  "(apt-get install bubblewrap).";

/**
 * The default backend: /usr/bin/python3 under bubblewrap (see bwrap-args.ts), in a per-job
 * cgroup for the memory cap, pid limit and CPU/peak-memory accounting; where no cgroup can be
 * made, RLIMIT_AS (prlimit) plus the wall-clock kill stand in and peak memory is unknown.
 * When the kit runs as root, bubblewrap runs as the unprivileged sandbox user (sandbox-user.ts),
 * so the program is that user on the host; folders that user cannot reach are bind-mounted for
 * it in a private mount namespace (stage-mounts.ts). The job folder is polled against
 * limits.diskMb and RLIMIT_FSIZE caps any one file at it.
 */
export class LocalExecutor implements Executor {
  readonly name: string;
  private readonly python: string;
  private readonly bwrap: string;
  private readonly unsafe: boolean;
  private readonly user: HostUser | null;

  constructor(private readonly opts: LocalExecutorOptions = {}) {
    this.python = sandboxPython(opts.python);
    this.bwrap = opts.bwrap ?? "bwrap";
    const why = probeBwrap(this.bwrap);
    const unsafeAllowed = opts.unsafe ?? process.env.OPENMLE_UNSAFE_SANDBOX === "1";
    if (why && !unsafeAllowed) {
      throw new SandboxUnavailableError(
        `The local sandbox needs bubblewrap: ${why}. Install it (apt-get install bubblewrap), use ` +
          `the docker backend, ` +
          `or accept running programs without isolation with { unsafe: true } / OPENMLE_UNSAFE_SANDBOX=1.`,
      );
    }
    this.unsafe = why !== null;
    this.name = this.unsafe ? "local-unsafe" : "local";
    this.user = this.unsafe ? null : sandboxHostUser();
  }

  async run(spec: ExecSpec): Promise<ExecResult> {
    const warnings: string[] = [];
    // Named after this process, so the next process can tell a cgroup left by a kill -9 (see cgroup.ts).
    const cg =
      this.opts.cgroup === false ? null : JobCgroup.create(`${process.pid}-${randomUUID()}`, spec.limits.memoryMb);
    const memBytes = Math.round(spec.limits.memoryMb * 1024 * 1024);
    const diskBytes = Math.round(spec.limits.diskMb * 1024 * 1024);
    let command: string[];
    let env: Record<string, string>;
    const filter = this.unsafe ? null : openUidQuotaFilter();
    if (this.unsafe) {
      warnings.push(UNSAFE_WARNING);
      this.opts.onWarning?.(UNSAFE_WARNING);
      env = sandboxEnv(spec.limits, spec.publicDir, spec.jobDir, spec.env);
      env.HOME = spec.jobDir;
      env.TMPDIR = spec.jobDir;
      env.MPLCONFIGDIR = spec.jobDir;
      command = [this.python, "code/main.py"];
    } else {
      env = sandboxEnv(spec.limits, SANDBOX_DATA_DIR, SANDBOX_WORKDIR, spec.env);
      let mounts = { prefix: [] as string[], publicDir: spec.publicDir, jobDir: spec.jobDir };
      if (this.user) {
        chownTree(spec.jobDir, this.user);
        // (A missing folder is left to bubblewrap, which reports it.)
        if ([spec.publicDir, spec.jobDir].some((d) => existsSync(d) && !reachableBy(this.user!, d)))
          mounts = stagePrefix(stagingPoint(this.user!), spec.publicDir, spec.jobDir);
        mounts.prefix.push(...dropPrivilegesPrefix(this.user));
      }
      command = [
        ...mounts.prefix,
        this.bwrap,
        ...bwrapArgs({
          jobDir: mounts.jobDir,
          publicDir: mounts.publicDir,
          env,
          command: [this.python, "code/main.py"],
          readOnlyDirs: [interpreterPrefix(this.python)].filter((d): d is string => d !== null),
          gpuDevices: spec.limits.gpus > 0 ? nvidiaDevices() : [],
          seccompFd: filter === null ? undefined : 3,
          statusFd: filter === null ? 3 : 4,
        }),
      ];
    }
    const [cmd, args] = limitedCommand(cg, { fsizeBytes: diskBytes, asBytes: memBytes }, command);
    const quotaKill = new AbortController();
    const signal = spec.signal ? AbortSignal.any([spec.signal, quotaKill.signal]) : quotaKill.signal;
    // The job's processes, for the deleted files they keep open: its cgroup, else the tree under the child.
    let rootPid = 0;
    const pids = () => (cg ? cg.pids() : rootPid > 0 ? processTree(rootPid) : []);
    const quota = watchDiskQuota(
      [spec.jobDir],
      { maxBytes: diskBytes, maxFiles: MAX_JOB_FILES },
      () => quotaKill.abort(),
      { pids },
    );
    try {
      const r = await supervise({
        command: cmd,
        args,
        cwd: spec.jobDir,
        env: this.unsafe ? env : { PATH: "/usr/bin:/bin" },
        timeoutS: spec.limits.timeoutS,
        outputCapBytes: spec.outputCapBytes,
        signal,
        killTree: cg ? () => cg.killAll() : undefined,
        extraFds: filter === null ? [] : [filter],
        statusPipe: !this.unsafe,
        onSpawn: (pid) => (rootPid = pid),
      });
      if (cg) await cg.killAll(); // nothing of the job outlives it
      const diskQuota = await quota.stop();
      const stats = cg?.stats();
      if (r.truncated) warnings.push(`output truncated to the last ${spec.outputCapBytes} bytes per stream`);
      const bwrapFailed = !this.unsafe && bwrapSetupFailed(r); // (issue 59: a program cannot forge it)
      return {
        exitCode: r.exitCode,
        signal: r.signal,
        timedOut: r.timedOut,
        cancelled: r.cancelled && !!spec.signal?.aborted,
        diskQuota,
        oomKilled: !r.timedOut && !r.cancelled && (stats?.oomKills ?? 0) > 0,
        sandboxError: r.spawnError ?? (bwrapFailed ? r.stderr.trim().slice(0, 2000) : null),
        stdout: r.stdout,
        stderr: r.stderr,
        wallS: r.wallS,
        cpuS: stats?.cpuS ?? 0,
        peakMemMb: stats ? stats.peakMemMb : null,
        warnings,
      };
    } finally {
      closeFilter(filter); // the child has its own copy from the spawn
      await quota.stop();
      cg?.remove();
    }
  }
}

/** The job folder (and what the kit put in it) belongs to the sandbox user, so the program can write it. */
export function chownTree(dir: string, user: HostUser): void {
  chownSync(dir, user.uid, user.gid);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (lstatSync(p).isDirectory()) chownTree(p, user);
    else chownSync(p, user.uid, user.gid);
  }
}
