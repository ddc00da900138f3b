import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { blasPinEnv } from "../jail/index.js";
import {
  closeFilter,
  dropPrivilegesPrefix,
  finishArgs,
  type HostUser,
  interpreterPrefix,
  isolationArgs,
  JobCgroup,
  limitedCommand,
  openUidQuotaFilter,
  seccompArgs,
  TailBuffer,
} from "../jail/index.js";

/** What the scoring sandbox gets, as bytes (copied in read-only through descriptors, no host path mounted). */
export interface ScorerFiles {
  readonly harness: Buffer;
  /** scorer_serve.py, the server `metric_harness.py serve` imports from beside itself. */
  readonly serve: Buffer;
  readonly metric: Buffer;
  readonly answers: Buffer;
}

/** The harness's reply to one request (see `serve` in metric_harness.py). */
export interface ScorerReply {
  readonly ok: boolean;
  readonly ready?: boolean;
  readonly score?: number;
  readonly kind?: string;
  readonly message?: string;
  readonly dirty?: boolean;
}

/** How one request ended: a reply, or the sandbox is gone (it is then stopped). */
export type ScorerOutcome =
  | { readonly type: "reply"; readonly reply: ScorerReply }
  | { readonly type: "timeout" }
  | { readonly type: "memory" }
  | { readonly type: "died"; readonly detail: string };

/** The scoring sandbox's paths and environment (the same as the per-node scorer's). */
export const SCORE_DIR = "/score";
export const SCORER_ENV: Readonly<Record<string, string>> = {
  PATH: "/usr/bin:/bin",
  HOME: "/tmp",
  LANG: "C.UTF-8",
  PYTHONDONTWRITEBYTECODE: "1",
  OMP_NUM_THREADS: "1",
  OPENBLAS_NUM_THREADS: "1",
  MKL_NUM_THREADS: "1",
  MPLBACKEND: "Agg",
  ...blasPinEnv(),
};

/**
 * One long-lived scoring sandbox for one task: bubblewrap with the jobs' namespaces (no network,
 * /proc read-only, the unprivileged sandbox user when the kit is root), its own cgroup (memory cap,
 * 256 pids), `/dev` read-only, and writable only its private `/tmp`, `/dev/shm` and `/score`
 * (the four files in `/score` are read-only copies). It runs `metric_harness.py serve`, which
 * scores each submission in a fresh fork of the loaded metric and cleans up after it.
 * Requests are answered one at a time; past `timeoutS`, or when it dies, the sandbox is killed.
 */
export class ScorerWorker {
  private readonly child: ChildProcess;
  private stdoutBuf = "";
  private stderr = new TailBuffer(16 * 1024);
  private waiter: ((o: ScorerOutcome) => void) | null = null;
  private exited = false;
  private exitDetail = "";
  private oomSeen = 0;
  private readonly exitedP: Promise<void>;
  readonly cg: JobCgroup | null;

  constructor(opts: {
    files: ScorerFiles;
    options: Record<string, unknown>;
    python: string;
    memoryMb: number;
    bwrap: string;
    user: HostUser | null;
  }) {
    // Named after this process, so a later process can sweep it after a kill -9 (see cgroup.ts).
    this.cg = JobCgroup.create(`${process.pid}-${randomUUID()}`, opts.memoryMb, 256);
    const a = isolationArgs();
    a.push("--tmpfs", "/dev/shm", "--remount-ro", "/dev");
    const prefix = interpreterPrefix(opts.python);
    if (prefix) a.push("--ro-bind", prefix, prefix);
    a.push("--perms", "0700", "--tmpfs", SCORE_DIR);
    ["metric_harness.py", "scorer_serve.py", "metric.py", "answers.csv"].forEach((name, i) =>
      a.push("--perms", "0444", "--ro-bind-data", String(3 + i), `${SCORE_DIR}/${name}`),
    );
    a.push("--chdir", "/tmp");
    const filter = openUidQuotaFilter();
    a.push(...seccompArgs(filter, 7));
    const command = [
      opts.python,
      `${SCORE_DIR}/metric_harness.py`,
      "serve",
      `${SCORE_DIR}/metric.py`,
      `${SCORE_DIR}/answers.csv`,
      `${SCORE_DIR}/submission.csv`,
      JSON.stringify(opts.options),
      "/tmp",
      "/dev/shm",
      SCORE_DIR,
    ];
    const full = [
      ...(opts.user ? dropPrivilegesPrefix(opts.user) : []),
      opts.bwrap,
      ...finishArgs(a, SCORER_ENV, command),
    ];
    const [cmd, args] = limitedCommand(
      this.cg,
      { fsizeBytes: 64 * 1024 * 1024, asBytes: Math.round(opts.memoryMb * 1024 * 1024) },
      full,
    );
    this.child = spawn(cmd, args, {
      env: { PATH: "/usr/bin:/bin" },
      stdio: ["pipe", "pipe", "pipe", "pipe", "pipe", "pipe", "pipe", ...(filter === null ? [] : [filter])],
      detached: true,
    });
    closeFilter(filter);
    this.exitedP = new Promise((resolve) => {
      this.child.on("error", (e) => {
        this.exitDetail = `could not start ${cmd}: ${e.message}`;
        this.onExit();
        resolve();
      });
      this.child.on("exit", (code, signal) => {
        this.exitDetail = signal ? `killed by ${signal}` : `exit ${code}`;
        this.onExit();
        resolve();
      });
    });
    const data = [opts.files.harness, opts.files.serve, opts.files.metric, opts.files.answers];
    data.forEach((b, i) => {
      const s = this.child.stdio[3 + i] as Writable;
      s.on("error", () => undefined); // the sandbox failed to start: reported by its exit
      s.end(b);
    });
    (this.child.stdin as Writable).on("error", () => undefined);
    this.child.stdout!.setEncoding("utf8");
    this.child.stdout!.on("data", (s: string) => this.onStdout(s));
    this.child.stderr!.on("data", (b: Buffer) => this.stderr.push(b));
    this.idle();
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** The first reply: ready, or the metric cannot be loaded. */
  ready(timeoutS: number): Promise<ScorerOutcome> {
    return this.next(timeoutS);
  }

  /** Score one submission (its bytes). */
  score(submission: Buffer, timeoutS: number): Promise<ScorerOutcome> {
    this.stderr = new TailBuffer(16 * 1024);
    const p = this.next(timeoutS);
    const stdin = this.child.stdin as Writable;
    if (!this.exited) {
      stdin.write(`${submission.length}\n`);
      stdin.write(submission);
    }
    return p;
  }

  /** The last lines the sandbox wrote to stderr (the metric's own output and tracebacks). */
  stderrTail(lines = 5): string {
    return this.stderr.text().trim().split("\n").slice(-lines).join(" | ");
  }

  /** Kill the sandbox (its process group and everything in its cgroup) and remove its cgroup. */
  async stop(): Promise<void> {
    this.killNow();
    if (this.cg) await this.cg.killAll();
    await Promise.race([this.exitedP, new Promise((r) => setTimeout(r, 2000).unref())]);
    this.cg?.remove();
  }

  /** Synchronous part of stop (also used when the kit's process exits). */
  killNow(): void {
    try {
      if (this.child.pid && !this.exited) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
    for (const pid of this.cg?.pids() ?? []) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
  }

  private next(timeoutS: number): Promise<ScorerOutcome> {
    if (this.exited) return Promise.resolve(this.deadOutcome());
    this.busy();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        this.idle();
        this.killNow();
        resolve({ type: "timeout" });
      }, timeoutS * 1000);
      this.waiter = (o) => {
        clearTimeout(timer);
        this.waiter = null;
        this.idle();
        resolve(o.type === "reply" && this.oomKilled() ? { type: "memory" } : o);
      };
    });
  }

  private onStdout(s: string): void {
    this.stdoutBuf += s;
    let nl: number;
    while ((nl = this.stdoutBuf.indexOf("\n")) >= 0) {
      const line = this.stdoutBuf.slice(0, nl);
      this.stdoutBuf = this.stdoutBuf.slice(nl + 1);
      if (!line.startsWith("OPENMLE_RESULT ")) continue;
      let reply: ScorerReply;
      try {
        reply = JSON.parse(line.slice("OPENMLE_RESULT ".length)) as ScorerReply;
      } catch {
        reply = { ok: false, kind: "crash", message: "the scoring sandbox sent an unreadable reply" };
      }
      this.waiter?.({ type: "reply", reply });
    }
  }

  private onExit(): void {
    this.exited = true;
    this.waiter?.(this.deadOutcome());
    if (this.cg) void this.cg.killAll().then(() => this.cg!.remove());
  }

  private deadOutcome(): ScorerOutcome {
    return this.oomKilled() ? { type: "memory" } : { type: "died", detail: this.exitDetail || "not running" };
  }

  private oomKilled(): boolean {
    const n = this.cg?.stats().oomKills ?? 0;
    const fresh = n > this.oomSeen;
    this.oomSeen = n;
    return fresh;
  }

  /** While idle the sandbox does not keep the kit's process alive (it dies with it: --die-with-parent). */
  private idle(): void {
    this.child.unref();
    for (const s of [this.child.stdout, this.child.stderr, this.child.stdin] as (Readable | Writable | null)[])
      (s as unknown as { unref?: () => void } | null)?.unref?.();
  }

  private busy(): void {
    this.child.ref();
    for (const s of [this.child.stdout, this.child.stderr, this.child.stdin] as (Readable | Writable | null)[])
      (s as unknown as { ref?: () => void } | null)?.ref?.();
  }
}
