import { readdir, readFile, stat } from "node:fs/promises";

/** Deleted files that a job's processes still hold: they take disk space but no folder walk sees them. */
export interface DeletedOpenFiles {
  /** Allocated bytes (st_blocks × 512), each file counted once (by device and inode). */
  readonly bytes: number;
  readonly files: number;
}

/**
 * The regular files with no name left (st_nlink 0) that the processes `pids` hold open or mapped,
 * on the devices `devs` (the quota folders' filesystems: a deleted file on a tmpfs or a memfd is
 * memory, capped as memory). Per process it reads one live thread's view (the leader's, or another
 * thread's once the leader has exited: /proc/<tid> of a zombie leader shows nothing): its descriptor
 * table /proc/<tid>/fd, and the deleted mappings of /proc/<tid>/maps through /proc/<tid>/map_files
 * (readable as root: a file can be mapped, closed and unlinked). stat() follows these links to the
 * file itself, across mount namespaces. Not seen (each takes a deliberate system call, and looking
 * would cost a stat per descriptor per thread): a descriptor table that a thread unshared
 * (unshare(CLONE_FILES)), and descriptors in flight in a unix socket (sent with SCM_RIGHTS, never received).
 */
export async function deletedOpenFiles(pids: Iterable<number>, devs: ReadonlySet<number>): Promise<DeletedOpenFiles> {
  const seen = new Set<string>();
  let bytes = 0;
  const count = async (link: string) => {
    try {
      const st = await stat(link);
      const key = `${st.dev}:${st.ino}`;
      if (!st.isFile() || st.nlink !== 0 || !devs.has(st.dev) || seen.has(key)) return;
      seen.add(key);
      bytes += st.blocks * 512;
    } catch {
      /* closed, exited, or not ours to read */
    }
  };
  const list = (dir: string) => readdir(dir).catch(() => [] as string[]);
  for (const pid of new Set(pids)) {
    if (!(pid > 0)) continue;
    const tids = [String(pid), ...(await list(`/proc/${pid}/task`)).filter((t) => t !== String(pid))];
    for (const tid of tids) {
      const maps = await readFile(`/proc/${tid}/maps`, "utf8").catch(() => "");
      if (!maps) continue; // a zombie leader (or gone): another thread holds the table
      const fds = await list(`/proc/${tid}/fd`);
      const deleted = maps.split("\n").filter((l) => l.endsWith(" (deleted)"));
      await Promise.all([
        ...fds.map((fd) => count(`/proc/${tid}/fd/${fd}`)),
        ...deleted.map((l) => count(`/proc/${tid}/map_files/${l.slice(0, l.indexOf(" "))}`)),
      ]);
      break;
    }
  }
  return { bytes, files: seen.size };
}
