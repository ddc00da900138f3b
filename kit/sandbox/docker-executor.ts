import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import Docker from "dockerode";
import { DockerUnavailableError } from "./errors.js";
import { TailBuffer, watchDiskQuota } from "../jail/index.js";
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

export interface DockerExecutorOptions {
  /** Image holding /usr/bin/python3 and the ML stack (recipe: kit/sandbox/docker/Dockerfile). */
  readonly image?: string;
  readonly socketPath?: string;
  /** Non-root user the program runs as (uid:gid). */
  readonly user?: string;
  readonly pidsLimit?: number;
  /**
   * Host folders mounted read-only at the same path (e.g. ["/usr"] for the host-python image
   * the tests import, whose Python stack is the host's). Default none.
   */
  readonly hostReadOnly?: readonly string[];
}

export const DEFAULT_IMAGE = "openmle-sandbox:latest";

/**
 * The Docker backend: the same contract as the local executor, in a container with no network,
 * memory (RAM = RAM + swap) and pid limits, a read-only root, every capability dropped,
 * no-new-privileges, a non-root user, the public data read-only at /data and only the job folder
 * writable at /workspace. GPU jobs get their GPUs through DeviceRequests (NVIDIA runtime).
 */
export class DockerExecutor implements Executor {
  readonly name = "docker";
  readonly docker: Docker;
  private readonly image: string;

  constructor(private readonly opts: DockerExecutorOptions = {}) {
    this.docker = new Docker({ socketPath: opts.socketPath ?? "/var/run/docker.sock" });
    this.image = opts.image ?? DEFAULT_IMAGE;
  }

  /** Throws DockerUnavailableError naming what is missing (engine or image). */
  async check(): Promise<void> {
    try {
      await this.docker.ping();
    } catch (e) {
      throw new DockerUnavailableError(
        `No Docker engine ` +
          `answers on ${this.opts.socketPath ?? "/var/run/docker.sock"} (${(e as Error).message}). Start ` +
          `dockerd, or use the local backend.`,
        { cause: e },
      );
    }
    try {
      await this.docker.getImage(this.image).inspect();
    } catch (e) {
      throw new DockerUnavailableError(
        `Docker image ${this.image} is missing. Build it: docker build -t ${this.image} kit/sandbox/docker`,
        { cause: e },
      );
    }
  }

  async run(spec: ExecSpec): Promise<ExecResult> {
    const t0 = performance.now();
    const { limits } = spec;
    openForUser(spec.jobDir);
    // A private /tmp per job: a host folder removed afterwards (a tmpfs would be nicer, but some
    // engines ignore tmpfs-mode, leaving a root-owned /tmp the non-root user cannot write).
    const tmp = mkdtempSync(join(tmpdir(), "openmle-job-tmp-"));
    chmodSync(tmp, 0o1777);
    // Host GPU indices (from the pool) select devices; inside, the runtime renumbers them from 0.
    const { CUDA_VISIBLE_DEVICES: hostGpuIds, ...extraEnv } = spec.env ?? {};
    const env = sandboxEnv(limits, SANDBOX_DATA_DIR, SANDBOX_WORKDIR, extraEnv);
    const bytes = Math.round(limits.memoryMb * 1024 * 1024);
    const diskBytes = Math.round(limits.diskMb * 1024 * 1024);
    const container = await this.docker.createContainer({
      Image: this.image,
      // The in-container `timeout` only matters when this process dies mid-job (a killed queue
      // worker): the orphaned container then still ends shortly after the job's limit.
      Cmd: [
        "/usr/bin/timeout",
        "-s",
        "KILL",
        String(Math.ceil(limits.timeoutS) + 10),
        "/usr/bin/python3",
        "code/main.py",
      ],
      Labels: { "openmle.sandbox": "1" },
      WorkingDir: SANDBOX_WORKDIR,
      User: this.opts.user ?? "1000:1000",
      Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
      NetworkDisabled: true,
      AttachStdout: true,
      AttachStderr: true,
      HostConfig: {
        NetworkMode: "none",
        Memory: bytes,
        MemorySwap: bytes,
        PidsLimit: this.opts.pidsLimit ?? 1024,
        NanoCpus: limits.cpus * 1e9,
        ReadonlyRootfs: true,
        CapDrop: ["ALL"],
        SecurityOpt: ["no-new-privileges"],
        Init: false,
        // No single file past the disk quota; the folders are polled for the total (below).
        Ulimits: [{ Name: "fsize", Soft: diskBytes, Hard: diskBytes }],
        Binds: [
          `${spec.publicDir}:${SANDBOX_DATA_DIR}:ro`,
          `${spec.jobDir}:${SANDBOX_WORKDIR}:rw`,
          `${tmp}:/tmp:rw`,
          ...(this.opts.hostReadOnly ?? []).map((d) => `${d}:${d}:ro`),
        ],
        ...(limits.gpus > 0
          ? {
              DeviceRequests: [
                {
                  Driver: "nvidia",
                  Capabilities: [["gpu"]],
                  ...(hostGpuIds ? { DeviceIDs: hostGpuIds.split(",") } : { Count: limits.gpus }),
                },
              ],
            }
          : {}),
      },
    });
    const out = new TailBuffer(spec.outputCapBytes, 2048);
    const err = new TailBuffer(spec.outputCapBytes, 2048);
    let timedOut = false;
    let cancelled = false;
    let timer: NodeJS.Timeout | undefined;
    const kill = () => container.kill().catch(() => undefined);
    // The job folder and the per-job /tmp are host folders: both count against the quota, and so do
    // deleted files the container's processes keep open there (seen from the host's /proc: a local engine).
    let rootPid = 0;
    const quota = watchDiskQuota(
      [spec.jobDir, tmp],
      { maxBytes: diskBytes, maxFiles: MAX_JOB_FILES },
      () => void kill(),
      { pids: () => (rootPid > 0 ? processTree(rootPid) : []) },
    );
    const onAbort = () => {
      cancelled = true;
      void kill();
    };
    try {
      const stream = await container.attach({ stream: true, stdout: true, stderr: true });
      const ended = new Promise<void>((r) => stream.on("end", r));
      container.modem.demuxStream(stream, sink(out), sink(err));
      await container.start();
      void container.inspect().then(
        (i: { State: { Pid?: number } }) => (rootPid = i.State.Pid ?? 0),
        () => undefined,
      );
      timer = setTimeout(() => {
        timedOut = true;
        void kill();
      }, limits.timeoutS * 1000);
      if (spec.signal?.aborted) onAbort();
      else spec.signal?.addEventListener("abort", onAbort, { once: true });
      const waited = (await container.wait()) as { StatusCode: number };
      await Promise.race([ended, new Promise((r) => setTimeout(r, 1000))]);
      const info = await container.inspect();
      const diskQuota = await quota.stop();
      const oom = info.State.OOMKilled && !timedOut && !cancelled;
      const killed = timedOut || cancelled || oom || !!diskQuota || waited.StatusCode === 137;
      return {
        exitCode: killed ? null : waited.StatusCode,
        signal: killed ? "SIGKILL" : null,
        timedOut,
        cancelled,
        diskQuota,
        oomKilled: oom,
        sandboxError: null,
        stdout: out.text(),
        stderr: err.text(),
        wallS: (performance.now() - t0) / 1000,
        cpuS: 0,
        peakMemMb: null,
        warnings:
          out.truncated || err.truncated
            ? [`output truncated to the last ${spec.outputCapBytes} bytes per stream`]
            : [],
      };
    } finally {
      clearTimeout(timer);
      await quota.stop();
      spec.signal?.removeEventListener("abort", onAbort);
      await container.remove({ force: true }).catch(() => undefined);
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}

function sink(buf: TailBuffer): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, cb) {
      buf.push(chunk);
      cb();
    },
  });
}

/** The container user (uid 1000) must be able to write the job folder. */
function openForUser(dir: string): void {
  chmodSync(dir, 0o777);
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    chmodSync(p, statSync(p).isDirectory() ? 0o777 : 0o666);
  }
}
