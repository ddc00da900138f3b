import { spawnSync } from "node:child_process";
import { dropPrivilegesPrefix, sandboxHostUser } from "./sandbox-user.js";

const probeCache = new Map<string, string | null>();
/**
 * null when bubblewrap can create the namespaces the sandbox needs, as the user programs run as
 * (the unprivileged sandbox user when the kit runs as root), else why not.
 */
export function probeBwrap(bwrap = "bwrap"): string | null {
  if (!probeCache.has(bwrap)) {
    let prefix: string[] = [];
    try {
      const user = sandboxHostUser();
      if (user) prefix = dropPrivilegesPrefix(user);
    } catch (e) {
      probeCache.set(bwrap, (e as Error).message);
      return probeCache.get(bwrap)!;
    }
    const args = [
      "--unshare-user",
      "--disable-userns",
      "--unshare-pid",
      "--unshare-net",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--remount-ro",
      "/proc",
      "true",
    ];
    const [cmd, ...rest] = [...prefix, bwrap, ...args];
    const r = spawnSync(cmd!, rest, { encoding: "utf8", timeout: 10_000 });
    const who = prefix.length
      ? ` as the unprivileged user ${process.env.OPENMLE_SANDBOX_USER ?? "openmle-sandbox"} (unprivileged user ` +
        `namespaces must be allowed: sysctl kernel.unprivileged_userns_clone=1)`
      : "";
    probeCache.set(
      bwrap,
      r.error
        ? `${cmd} not found (${r.error.message})`
        : r.status === 0
          ? null
          : `${bwrap} failed${who}: ${(r.stderr || "").trim()}`,
    );
  }
  return probeCache.get(bwrap)!;
}
