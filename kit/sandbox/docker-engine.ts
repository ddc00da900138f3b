import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Docker from "dockerode";

export interface EngineHandle {
  readonly docker: Docker;
  /** Set when this call started dockerd (stop() ends it). */
  readonly started: ChildProcess | null;
  stop(): void;
}

/**
 * A Docker engine to talk to: the running one, or (as root, when `dockerd` is installed) one
 * started here with `dockerd --iptables=false --bridge=none --storage-driver=overlay2`, waiting
 * for its socket. Returns a reason string when no engine can be had. Installs nothing.
 */
export async function ensureDockerEngine(
  opts: { socketPath?: string; waitS?: number } = {},
): Promise<EngineHandle | string> {
  const socketPath = opts.socketPath ?? "/var/run/docker.sock";
  const docker = new Docker({ socketPath });
  const ping = () =>
    docker.ping().then(
      () => true,
      () => false,
    );
  if (await ping()) return { docker, started: null, stop: () => undefined };
  if (spawnSync("dockerd", ["--version"]).error) return "dockerd is not installed (apt-get install docker.io)";
  if (process.getuid?.() !== 0) return "no Docker engine runs and starting dockerd needs root";
  const log = join(tmpdir(), `openmle-dockerd-${process.pid}.log`);
  const fd = openSync(log, "a");
  const child = spawn(
    "dockerd",
    ["--iptables=false", "--bridge=none", "--storage-driver=overlay2", "--host", `unix://${socketPath}`],
    {
      stdio: ["ignore", fd, fd],
      detached: true,
    },
  );
  child.unref();
  const deadline = Date.now() + (opts.waitS ?? 45) * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return `dockerd exited with code ${child.exitCode} (log: ${log})`;
    if (await ping()) return { docker, started: child, stop: () => child.kill("SIGTERM") };
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill("SIGKILL");
  return `dockerd did not answer within ${opts.waitS ?? 45} s (log: ${log})`;
}
