import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Docker from "dockerode";

/**
 * Make a local "host-python" image without pulling anything: a tiny root filesystem (the /bin,
 * /lib, /lib64, /sbin symlinks into /usr, an empty /usr, /workspace, /data, /tmp, /etc with a
 * passwd entry for uid 1000, the host's ld.so.cache and /etc/alternatives links), imported with `docker import`. Run it
 * with DockerExecutor({ hostReadOnly: ["/usr"] }) so /usr/bin/python3 and the ML stack come
 * read-only from the host. For real deployments build kit/sandbox/docker/Dockerfile instead.
 */
export async function importHostPythonImage(docker: Docker, tag = "openmle-sandbox-hostpy:test"): Promise<string> {
  try {
    await docker.getImage(tag).inspect();
    return tag;
  } catch {
    /* build it */
  }
  const root = mkdtempSync(join(tmpdir(), "openmle-rootfs-"));
  try {
    for (const d of ["usr", "etc", "workspace", "data", "tmp", "proc", "sys", "dev"]) mkdirSync(join(root, d));
    for (const d of ["bin", "lib", "lib64", "sbin"]) if (existsSync(`/${d}`)) symlinkSync(`usr/${d}`, join(root, d));
    writeFileSync(
      join(root, "etc", "passwd"),
      "root:x:0:0:root:/root:/bin/sh\nsandbox:x:1000:1000:sandbox:/tmp:/bin/sh\n",
    );
    writeFileSync(join(root, "etc", "group"), "root:x:0:\nsandbox:x:1000:\n");
    if (existsSync("/etc/ld.so.cache")) copyFileSync("/etc/ld.so.cache", join(root, "etc", "ld.so.cache"));
    // Debian reaches BLAS/LAPACK through /etc/alternatives symlinks into /usr: copy the links.
    if (existsSync("/etc/alternatives")) {
      mkdirSync(join(root, "etc", "alternatives"));
      for (const e of readdirSync("/etc/alternatives")) {
        const p = `/etc/alternatives/${e}`;
        if (lstatSync(p).isSymbolicLink()) symlinkSync(readlinkSync(p), join(root, "etc", "alternatives", e));
      }
    }
    const tar = spawn("tar", ["-C", root, "-cf", "-", "."], { stdio: ["ignore", "pipe", "inherit"] });
    const [repo, version] = tag.split(":");
    const progress = await docker.importImage(tar.stdout, { repo, tag: version ?? "latest" });
    await new Promise<void>((resolve, reject) =>
      docker.modem.followProgress(progress, (e: Error | null) => (e ? reject(e) : resolve())),
    );
    return tag;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
