import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../gym/index.js";
import {
  closeFilter,
  dropPrivilegesPrefix,
  finishArgs,
  type HostUser,
  isolationArgs,
  JobCgroup,
  openUidQuotaFilter,
  reachableBy,
  seccompArgs,
  stageBinds,
  stagingPoint,
} from "../jail/index.js";
import { processTree } from "../util/index.js";

/** What a zygote is started for: programs of one task's data, one jobs root and one environment share it. */
export interface ZygoteSpec {
  readonly python: string;
  readonly publicDir: string;
  /** The folder whose sub-folders are the job folders (mounted at /.jobs inside). */
  readonly jobsRoot: string;
  /** The program's environment (thread counts are read at import time, so it is part of the zygote). */
  readonly env: Readonly<Record<string, string>>;
  readonly preload: readonly string[];
  readonly readOnlyDirs: readonly string[];
  readonly gpuDevices: readonly string[];
  readonly user: HostUser | null;
  readonly bwrap: string;
  /** Memory cap of the zygote itself (its cgroup), MiB. */
  readonly memoryMb: number;
}

/** One program's life as the zygote reports it. */
export interface ZygoteJob {
  readonly onStdout: (b: Buffer) => void;
  readonly onStderr: (b: Buffer) => void;
  /** The child's host pid (for its cgroup), once forked. */
  readonly onForked: (hostPid: number) => void;
  /** Both streams closed and the child reaped (or the zygote died: `lost` says how). */
  readonly onExit: (r: ZygoteExit) => void;
}

/** Exit code (128 + signal when the program was killed, as bubblewrap reports it), or the child's own signal. */
export interface ZygoteExit {
  readonly code: number | null;
  readonly signal: number | null;
  readonly lost?: string;
  /** Why the sandbox failed before the program's first line (from the job's setup pipe, which no program can write). */
  readonly setupFailed?: string;
}

/** Where zygote.py lives (read from the source tree, also for the compiled kit, as gym's helpers). */
export function zygoteDir(): string {
  return join(projectRoot(), "kit", "sandbox", "python");
}

/**
 * A fork server in a bubblewrap sandbox of its own (python/zygote.py has the isolation design): uid 1000
 * of a user namespace where it holds every capability, which it uses only to give each child namespaces
 * of its own; each child then drops them all before the program's first line.
 */
export class Zygote {
  private readonly jobs = new Map<number, ZygoteJob>();
  private nextId = 1;
  private buf = Buffer.alloc(0);
  private hostPid = 0;
  private dead: string | null = null;
  private stderrTail = "";
  readonly ready: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly cg: JobCgroup | null,
    readonly key: string,
    private readonly env: Readonly<Record<string, string>>,
  ) {
    let resolveReady!: () => void;
    let rejectReady!: (e: Error) => void;
    this.ready = new Promise((res, rej) => ((resolveReady = res), (rejectReady = rej)));
    this.ready.catch(() => undefined);
    child.stdout!.on("data", (b: Buffer) => this.onData(b, resolveReady, rejectReady));
    child.stderr!.on("data", (b: Buffer) => (this.stderrTail = (this.stderrTail + b.toString()).slice(-4000)));
    child.on("exit", (code, signal) => {
      const tail = this.stderrTail ? `: ${this.stderrTail.trim()}` : "";
      this.dead = `the zygote ended (${signal ?? `exit ${code}`})${tail}`;
      rejectReady(new Error(this.dead));
      for (const [id, job] of this.jobs) {
        this.jobs.delete(id);
        job.onExit({ code: null, signal: null, lost: this.dead });
      }
      cg?.remove();
    });
    child.stdin!.on("error", () => undefined);
  }

  static start(spec: ZygoteSpec, key: string): Zygote {
    const cg = JobCgroup.create(`${process.pid}-${randomUUID()}`, spec.memoryMb);
    const mounts = { data: spec.publicDir, jobs: spec.jobsRoot, zygote: zygoteDir() };
    const prefix: string[] = [];
    if (spec.user) {
      const paths = [mounts.data, mounts.jobs, mounts.zygote];
      if (paths.some((d) => existsSync(d) && !reachableBy(spec.user!, d))) {
        const s = stageBinds(stagingPoint(spec.user), paths);
        prefix.push(...s.prefix);
        [mounts.data, mounts.jobs, mounts.zygote] = s.staged as [string, string, string];
      }
      prefix.push(...dropPrivilegesPrefix(spec.user));
    }
    const a = isolationArgs().filter((x) => x !== "--disable-userns");
    a.push("--cap-add", "ALL");
    for (const d of spec.readOnlyDirs) a.push("--ro-bind", d, d);
    for (const d of spec.gpuDevices) a.push("--dev-bind", d, d);
    a.push("--ro-bind", mounts.data, "/data", "--bind", mounts.jobs, "/.jobs", "--ro-bind", mounts.zygote, "/.zygote");
    a.push("--dir", "/workspace", "--dir", "/.stage", "--chdir", "/");
    const filter = openUidQuotaFilter();
    a.push(...seccompArgs(filter, 3));
    const command = [
      ...prefix,
      spec.bwrap,
      ...finishArgs(a, spec.env, [spec.python, "/.zygote/zygote.py", ...spec.preload]),
    ];
    // No RLIMIT_FSIZE on the zygote: each program sets its own, and could not raise one inherited from here.
    const [cmd, args] = cg
      ? ["/bin/sh", ["-c", `${cg.enterScript()} && exec "$@"`, "sh", ...command]]
      : [command[0]!, command.slice(1)];
    const stdio = ["pipe", "pipe", "pipe", ...(filter === null ? [] : [filter])] as const;
    const child = spawn(cmd, args, { env: { PATH: "/usr/bin:/bin" }, stdio: [...stdio] });
    closeFilter(filter);
    return new Zygote(child, cg, key, spec.env);
  }

  get alive(): boolean {
    return this.dead === null && this.child.exitCode === null;
  }

  get why(): string {
    return this.dead ?? "";
  }

  /** Fork a child for the job folder `jobName` (under jobsRoot); it waits for `go`. Returns the job id. */
  fork(jobName: string, extra: { fsizeBytes: number; asBytes: number | null }, job: ZygoteJob): number {
    const id = this.nextId++;
    this.jobs.set(id, job);
    // The environment is the zygote's own, sent again because imports may have changed os.environ.
    this.send({ op: "run", id, job: jobName, env: this.env, fsizeBytes: extra.fsizeBytes, asBytes: extra.asBytes });
    return id;
  }

  go(id: number): void {
    this.send({ op: "go", id });
  }

  kill(id: number): void {
    this.send({ op: "kill", id });
  }

  /** The zygote's host pid (0 until it is ready). */
  get pid(): number {
    return this.hostPid;
  }

  get busy(): number {
    return this.jobs.size;
  }

  async close(): Promise<void> {
    this.child.stdin!.end();
    this.child.kill("SIGKILL");
    if (this.cg) await this.cg.killAll();
    else for (const p of processTree(this.child.pid ?? 0)) process.kill(p, "SIGKILL");
    this.cg?.remove();
  }

  private send(msg: Record<string, unknown>): void {
    if (this.alive) this.child.stdin!.write(`${JSON.stringify(msg)}\n`);
  }

  /** Frames: kind (1 byte), job id (u32 LE), length (u32 LE), payload. */
  private onData(b: Buffer, ready: () => void, fail: (e: Error) => void): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, b]) : b;
    while (this.buf.length >= 9) {
      const n = this.buf.readUInt32LE(5);
      if (this.buf.length < 9 + n) return;
      const kind = String.fromCharCode(this.buf[0]!);
      const id = this.buf.readUInt32LE(1);
      const payload = this.buf.subarray(9, 9 + n);
      this.buf = this.buf.subarray(9 + n);
      if (kind === "r") {
        this.hostPid = this.findHostPid(1);
        ready();
      } else if (kind === "f") fail(new Error(payload.toString()));
      else this.onJobFrame(kind, id, payload);
    }
  }

  private onJobFrame(kind: string, id: number, payload: Buffer): void {
    const job = this.jobs.get(id);
    if (!job) return;
    if (kind === "1") {
      if (payload.length) job.onStdout(Buffer.from(payload));
    } else if (kind === "2") {
      if (payload.length) job.onStderr(Buffer.from(payload));
    } else if (kind === "s") {
      const nsPid = (JSON.parse(payload.toString()) as { pid: number }).pid;
      job.onForked(this.childHostPid(nsPid));
    } else if (kind === "x") {
      this.jobs.delete(id);
      const x = JSON.parse(payload.toString()) as { code: { exit?: number; signal?: number }; setup: string | null };
      const setup = x.setup ? { setupFailed: `openmle-sandbox: ${x.setup}` } : {};
      job.onExit({ code: x.code.exit ?? null, signal: x.code.signal ?? null, ...setup });
    }
  }

  /** The zygote's host pid (PID 1 of its namespace): the spawned process's descendant whose NSpid ends in 1. */
  private findHostPid(nsPid: number): number {
    for (const pid of processTree(this.child.pid ?? 0)) if (nsPidOf(pid)?.at(-1) === nsPid) return pid;
    return 0;
  }

  /** A child's host pid from its pid inside the zygote's namespace (the kernel's NSpid of each child). */
  private childHostPid(nsPid: number): number {
    if (!this.hostPid) return 0;
    let kids: number[] = [];
    try {
      kids = readFileSync(`/proc/${this.hostPid}/task/${this.hostPid}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .map(Number);
    } catch {
      kids = processTree(this.hostPid);
    }
    for (const k of kids) {
      const ns = nsPidOf(k);
      if (ns && ns.length >= 2 && ns.at(-1) === nsPid) return k;
    }
    return 0;
  }
}

function nsPidOf(pid: number): number[] | null {
  try {
    const m = /^NSpid:\s+(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? m[1]!.trim().split(/\s+/).map(Number) : null;
  } catch {
    return null;
  }
}
