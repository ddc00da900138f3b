import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { TailBuffer } from "./tail-buffer.js";

export interface Supervised {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly spawnError: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
  readonly wallS: number;
  /** The last 4 KiB the child wrote on its status pipe (`statusPipe`); "" without one. */
  readonly status: string;
}

/**
 * Whether a bubblewrap run failed before its command started: exit 1 with a `bwrap:`/`openmle-sandbox:` line, and no
 * exit-code line on its `--json-status-fd` pipe (bubblewrap writes that only once the command itself started, since
 * 0.3.2). A command that prints such a line and exits 1 has failed on its own: it cannot unwrite bubblewrap's line.
 */
export function bwrapSetupFailed(r: Pick<Supervised, "exitCode" | "status" | "stderr">): boolean {
  return r.exitCode === 1 && !/"exit-code"/.test(r.status) && /^(?:bwrap|openmle-sandbox): /m.test(r.stderr);
}

/**
 * Spawn a command in its own process group, keep bounded output, and enforce a wall-clock
 * limit and an AbortSignal. On either, `killTree` runs (it must kill every process of the job)
 * and the process group gets SIGKILL. Resolves once the process has exited and its pipes closed
 * (or 2 s after exit, in case something outside the tree holds them).
 */
export function supervise(opts: {
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutS: number;
  outputCapBytes: number;
  signal?: AbortSignal;
  killTree?: () => Promise<unknown>;
  /** Open file descriptors handed to the child as fds 3, 4, ... */
  extraFds?: readonly number[];
  /**
   * A pipe the child gets as the fd after `extraFds` (3 + their count), whose text comes back as `status`: for
   * bubblewrap's `--json-status-fd`, which says whether the command itself started.
   */
  statusPipe?: boolean;
  /** Called with the child's pid once it is spawned. */
  onSpawn?: (pid: number) => void;
}): Promise<Supervised> {
  const t0 = performance.now();
  const out = new TailBuffer(opts.outputCapBytes, 2048);
  const err = new TailBuffer(opts.outputCapBytes, 2048);
  return new Promise((resolve) => {
    let timedOut = false;
    let cancelled = false;
    let spawnError: string | null = null;
    let exit: { code: number | null; signal: string | null } | null = null;
    let finished = false;
    const child = spawn(opts.command, opts.args as string[], {
      cwd: opts.cwd,
      env: opts.env ?? {},
      stdio: ["ignore", "pipe", "pipe", ...(opts.extraFds ?? []), ...(opts.statusPipe ? (["pipe"] as const) : [])],
      detached: true,
    });
    let status = "";
    const statusStream = opts.statusPipe ? (child.stdio[3 + (opts.extraFds ?? []).length] as Readable | null) : null;
    // the tail: bubblewrap writes its exit-code line last, after the command (which may hold the fd too) has ended
    statusStream?.on("data", (b: Buffer) => (status = (status + b.toString()).slice(-4096)));
    if (child.pid) opts.onSpawn?.(child.pid);
    child.stdout!.on("data", (b: Buffer) => out.push(b));
    child.stderr!.on("data", (b: Buffer) => err.push(b));

    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        /* group already gone */
      }
      void opts.killTree?.();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, opts.timeoutS * 1000);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener("abort", onAbort, { once: true });

    let grace: NodeJS.Timeout | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(grace);
      opts.signal?.removeEventListener("abort", onAbort);
      // Whatever is left in the job's process group goes too (matters in unsafe mode only:
      // sandboxed jobs die with their PID namespace).
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        /* group already empty */
      }
      child.stdout!.destroy();
      child.stderr!.destroy();
      statusStream?.destroy();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        cancelled,
        spawnError,
        stdout: out.text(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        wallS: (performance.now() - t0) / 1000,
        status,
      });
    };
    child.on("error", (e) => {
      spawnError = `could not start ${opts.command}: ${e.message}`;
      finish();
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      grace = setTimeout(finish, 2000);
    });
    child.on("close", () => {
      if (exit) finish();
    });
  });
}
