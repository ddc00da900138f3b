import { randomUUID } from "node:crypto";
import { chmodSync, statSync } from "node:fs";
import { arch, constants } from "node:os";
import { basename, dirname } from "node:path";
import { z } from "zod";
import {
  interpreterPrefix,
  JobCgroup,
  nvidiaDevices,
  sandboxHostUser,
  sandboxPython,
  TailBuffer,
  watchDiskQuota,
  type HostUser,
} from "../jail/index.js";
import { stableHash } from "../store/index.js";
import { printableLine, processTree, signalAll } from "../util/index.js";
import {
  MAX_JOB_FILES,
  sandboxEnv,
  SANDBOX_DATA_DIR,
  SANDBOX_WORKDIR,
  type ExecResult,
  type ExecSpec,
  type Executor,
} from "./executor.js";
import { chownTree, LocalExecutor } from "./local-executor.js";
import { Zygote, type ZygoteExit } from "./zygote.js";

/** Warm start's settings (the local backend with `start: "warm"`). */
export const WarmStartConfig = z
  .object({
    preload: z
      .array(z.string().regex(/^[A-Za-z_][\w.]*$/))
      .default([
        "numpy",
        "pandas",
        "scipy.stats",
        "sklearn.ensemble",
        "sklearn.linear_model",
        "sklearn.model_selection",
        "sklearn.metrics",
        "sklearn.preprocessing",
        "sklearn.pipeline",
        "sklearn.impute",
      ])
      .describe("Modules each zygote imports before forking (one that fails to import is skipped)."),
    maxZygotes: z.number().int().min(1).default(4).describe("Zygotes kept (one per task and environment), LRU."),
    zygoteMemoryMb: z.number().min(256).default(2048).describe("Memory cap of each zygote's own cgroup, MiB."),
  })
  .strict();
export type WarmStartConfig = z.infer<typeof WarmStartConfig>;

/** Architectures zygote.py has a seccomp filter for. */
const WARM_ARCHES = ["x64", "arm64"];

export interface WarmExecutorOptions extends Partial<WarmStartConfig> {
  readonly python?: string;
  readonly bwrap?: string;
  readonly cgroup?: boolean;
  readonly unsafe?: boolean;
  /** Called once with the reason when warm start cannot be had and programs start cold instead. */
  readonly onWarning?: (message: string) => void;
}

/**
 * The local backend with warm start: each program is forked from a zygote that has imported the ML stack
 * (zygote.ts, python/zygote.py), with its own namespaces, job folder, /tmp, cgroup, limits and output. Its
 * name is the cold backend's ("local"), so records and idempotency keys are the same as a cold start's.
 * Falls back to cold (LocalExecutor) with one warning where a zygote cannot run.
 */
export class WarmExecutor implements Executor {
  readonly name: string;
  private readonly cold: LocalExecutor;
  private readonly cfg: WarmStartConfig;
  private readonly python: string;
  private readonly user: HostUser | null;
  private readonly zygotes = new Map<string, Zygote>();
  private unavailable: string | null = null;
  private warned = false;

  constructor(private readonly opts: WarmExecutorOptions = {}) {
    const { python, bwrap, cgroup, unsafe, onWarning, ...cfg } = opts;
    this.cfg = WarmStartConfig.parse(cfg);
    this.cold = new LocalExecutor({ python, bwrap, cgroup, unsafe, onWarning });
    this.name = this.cold.name;
    this.python = sandboxPython(python);
    this.user = this.cold.name === "local" ? sandboxHostUser() : null;
    if (this.cold.name !== "local") this.unavailable = "bubblewrap is unavailable";
    else if (!WARM_ARCHES.includes(arch())) this.unavailable = `no seccomp filter for ${arch()}`;
    process.once("exit", () => {
      for (const z of this.zygotes.values()) z.close().catch(() => undefined);
    });
  }

  /** "warm", or "cold" once warm start turned out to be unavailable here. */
  get start(): "warm" | "cold" {
    return this.unavailable ? "cold" : "warm";
  }

  async run(spec: ExecSpec): Promise<ExecResult> {
    if (this.unavailable) return this.runCold(spec, this.unavailable);
    const env = sandboxEnv(spec.limits, SANDBOX_DATA_DIR, SANDBOX_WORKDIR, spec.env);
    let zygote: Zygote;
    try {
      zygote = await this.zygote(spec, env);
    } catch (e) {
      return this.runCold(spec, `its zygote did not start (${(e as Error).message})`);
    }
    return this.runWarm(spec, zygote);
  }

  /** Host pids of the running zygotes (for tests and the bench: nothing a program does may change them). */
  zygotePids(): number[] {
    return [...this.zygotes.values()].filter((z) => z.alive).map((z) => z.pid);
  }

  /** Stop every zygote (they also die with this process). */
  async close(): Promise<void> {
    await Promise.all([...this.zygotes.values()].map((z) => z.close()));
    this.zygotes.clear();
  }

  private runCold(spec: ExecSpec, why: string): Promise<ExecResult> {
    if (!this.warned) {
      this.warned = true;
      const message = `warm start unavailable: ${why}; programs start cold (a fresh interpreter each).`;
      (this.opts.onWarning ?? ((m: string) => process.stderr.write(`openmle: ${printableLine(m)}\n`)))(message);
    }
    return this.cold.run(spec);
  }

  private async zygote(spec: ExecSpec, env: Record<string, string>): Promise<Zygote> {
    const gpuDevices = spec.limits.gpus > 0 ? nvidiaDevices() : [];
    const jobsRoot = dirname(spec.jobDir);
    if (this.user) searchableByOthers(jobsRoot);
    const key = stableHash({ python: this.python, publicDir: spec.publicDir, jobsRoot, env, gpuDevices });
    // No await until the map holds the new zygote: two lanes starting zygotes at once must both see the other's
    // (an await between eviction and insertion let each lane see room, and the map grew past maxZygotes for good).
    let z = this.zygotes.get(key);
    const closing: Zygote[] = [];
    if (z && !z.alive) {
      this.zygotes.delete(key);
      closing.push(z);
      z = undefined;
    }
    if (!z) {
      // least recently used first; busy or still starting zygotes stay (the map shrinks back as they go idle)
      for (const x of [...this.zygotes.values()]) {
        if (this.zygotes.size < this.cfg.maxZygotes) break;
        if (x.busy === 0 && x.pid !== 0) {
          this.zygotes.delete(x.key);
          closing.push(x);
        }
      }
      z = Zygote.start(
        {
          python: this.python,
          publicDir: spec.publicDir,
          jobsRoot,
          env,
          preload: this.cfg.preload,
          readOnlyDirs: [interpreterPrefix(this.python)].filter((d): d is string => d !== null),
          gpuDevices,
          user: this.user,
          bwrap: this.opts.bwrap ?? "bwrap",
          memoryMb: this.cfg.zygoteMemoryMb,
        },
        key,
      );
    }
    this.zygotes.delete(key);
    this.zygotes.set(key, z); // most recently used last
    await Promise.all(closing.map((x) => x.close()));
    await z.ready;
    return z;
  }

  private async runWarm(spec: ExecSpec, zygote: Zygote): Promise<ExecResult> {
    const t0 = performance.now();
    const cg =
      this.opts.cgroup === false ? null : JobCgroup.create(`${process.pid}-${randomUUID()}`, spec.limits.memoryMb);
    const memBytes = Math.round(spec.limits.memoryMb * 1024 * 1024);
    const diskBytes = Math.round(spec.limits.diskMb * 1024 * 1024);
    if (this.user) chownTree(spec.jobDir, this.user);
    const out = new TailBuffer(spec.outputCapBytes, 2048);
    const err = new TailBuffer(spec.outputCapBytes, 2048);
    let childPid = 0;
    let timedOut = false;
    let cancelled = false;
    let setupError: string | null = null;
    let id = 0;
    const kill = () => {
      zygote.kill(id);
      if (cg) void cg.killAll();
      else if (childPid) signalAll(processTree(childPid), "SIGKILL");
    };
    const pids = () => (cg ? cg.pids() : childPid > 0 ? processTree(childPid) : []);
    const quota = watchDiskQuota([spec.jobDir], { maxBytes: diskBytes, maxFiles: MAX_JOB_FILES }, () => kill(), {
      pids,
    });
    try {
      const exit = await new Promise<ZygoteExit>((resolve) => {
        const timer = setTimeout(() => ((timedOut = true), kill()), spec.limits.timeoutS * 1000);
        const onAbort = () => ((cancelled = true), kill());
        spec.signal?.addEventListener("abort", onAbort, { once: true });
        id = zygote.fork(
          basename(spec.jobDir),
          { fsizeBytes: diskBytes, asBytes: cg ? null : memBytes },
          {
            onStdout: (b) => out.push(b),
            onStderr: (b) => err.push(b),
            onForked: (hostPid) => {
              childPid = hostPid;
              try {
                if (!hostPid) throw new Error("its host pid was not found");
                cg?.add(hostPid);
              } catch (e) {
                setupError = `warm start could not place the program in its cgroup: ${(e as Error).message}`;
                return kill();
              }
              if (spec.signal?.aborted) return onAbort();
              zygote.go(id);
            },
            onExit: (r) => {
              clearTimeout(timer);
              spec.signal?.removeEventListener("abort", onAbort);
              resolve(r);
            },
          },
        );
      });
      if (cg) await cg.killAll();
      const diskQuota = await quota.stop();
      const stats = cg?.stats();
      const stderr = err.text();
      const warnings: string[] = [];
      if (out.truncated || err.truncated)
        warnings.push(`output truncated to the last ${spec.outputCapBytes} bytes per stream`);
      return {
        exitCode: exit.code,
        signal: exit.signal !== null ? signalName(exit.signal) : null,
        timedOut,
        cancelled,
        diskQuota,
        oomKilled: !timedOut && !cancelled && (stats?.oomKills ?? 0) > 0,
        sandboxError: setupError ?? exit.lost ?? exit.setupFailed?.slice(0, 2000) ?? null,
        stdout: out.text(),
        stderr,
        wallS: (performance.now() - t0) / 1000,
        cpuS: stats?.cpuS ?? 0,
        peakMemMb: stats ? stats.peakMemMb : null,
        warnings,
      };
    } finally {
      await quota.stop();
      cg?.remove();
    }
  }
}

/**
 * The zygote reaches each job folder through the jobs folder above it, so the sandbox user must be able to
 * pass through it (o+x: search, not list; a mkdtemp folder is 0700). Folders above it that the user cannot
 * pass are bridged by the staging mounts (zygote.ts).
 */
function searchableByOthers(dir: string): void {
  const mode = statSync(dir).mode & 0o7777;
  if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
}

/** Node's name for a signal number, as a cold start's `exit` event gives it. */
function signalName(n: number): string {
  const hit = Object.entries(constants.signals).find(([, v]) => v === n);
  return hit ? hit[0] : `SIG${n}`;
}
