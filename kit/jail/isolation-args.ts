import { existsSync, lstatSync, readdirSync, readlinkSync } from "node:fs";

/** The uid/gid the program runs as inside its user namespace (no capabilities). */
export const SANDBOX_UID = 1000;

/** Namespaces and the system mounts every sandbox shares (jobs and the scorer). */
export function isolationArgs(
  systemDirs: readonly string[] = ["/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"],
): string[] {
  const a: string[] = [
    "--unshare-user",
    "--uid",
    String(SANDBOX_UID),
    "--gid",
    String(SANDBOX_UID),
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
    "--hostname",
    "sandbox",
    // The program is PID 1 of its namespace (no bwrap init: one process less per job, ~15 ms on
    // a loaded 2-core machine). When it exits, the kernel kills everything else in the namespace.
    "--as-pid-1",
    "--disable-userns",
  ];
  for (const dir of systemDirs) {
    if (!existsSync(dir)) continue;
    const st = lstatSync(dir);
    if (st.isSymbolicLink()) a.push("--symlink", readlinkSync(dir), dir);
    else a.push("--ro-bind", dir, dir);
  }
  // /dev/pts covered: no pseudo-terminals, since the kernel counts them in one pool for the whole host
  // (kernel.pty.max), which one job could drain for every other (issue 59); warm start's /dev is the same.
  a.push("--dev", "/dev", "--tmpfs", "/dev/pts", "--proc", "/proc", "--remount-ro", "/proc", "--tmpfs", "/tmp");
  return a;
}

/** The read-only root, a clean environment and the command. */
export function finishArgs(a: string[], env: Readonly<Record<string, string>>, command: readonly string[]): string[] {
  // The root itself is a bwrap tmpfs: make it read-only so nothing lands outside /workspace and /tmp.
  a.push("--remount-ro", "/");
  a.push("--clearenv");
  for (const [k, v] of Object.entries(env)) a.push("--setenv", k, v);
  a.push("--", ...command);
  return a;
}

/** NVIDIA device nodes to pass through for GPU jobs. */
export function nvidiaDevices(): string[] {
  try {
    return readdirSync("/dev")
      .filter((n) => /^nvidia/.test(n))
      .map((n) => `/dev/${n}`);
  } catch {
    return [];
  }
}
