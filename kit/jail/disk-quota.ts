import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

export interface DiskUsage {
  /** Allocated bytes (st_blocks × 512, so sparse files count what they really use). */
  readonly bytes: number;
  readonly files: number;
}

/** Allocated bytes and entries under `dirs` (no links followed); stops counting past `stopAtFiles`. */
export async function diskUsage(dirs: readonly string[], stopAtFiles = Infinity): Promise<DiskUsage> {
  let bytes = 0;
  let files = 0;
  const stack = [...dirs];
  while (stack.length && files <= stopAtFiles) {
    const d = stack.pop()!;
    let names: string[];
    try {
      names = await readdir(d);
    } catch {
      continue;
    }
    for (const n of names) {
      const p = join(d, n);
      try {
        const st = await lstat(p);
        bytes += st.blocks * 512;
        files++;
        if (st.isDirectory()) stack.push(p);
      } catch {
        /* removed meanwhile */
      }
    }
  }
  return { bytes, files };
}

/** A job's disk quota: bytes and entries under its job folder (plus any other host folder it writes). */
export interface DiskQuota {
  readonly maxBytes: number;
  readonly maxFiles: number;
}

/** The message of an exceeded quota (kept in the record's traceback). */
export function quotaMessage(u: DiskUsage, q: DiskQuota): string | null {
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
  if (u.bytes > q.maxBytes)
    return (
      `disk quota exceeded: the job ` +
      `folder holds ${mib(u.bytes)}, over its ${mib(q.maxBytes)} limit (limits.diskMb); the job was killed`
    );
  if (u.files > q.maxFiles)
    return `disk quota exceeded: the job folder holds over ${q.maxFiles} files and folders; the job was killed`;
  return null;
}

/**
 * Poll the folders' usage while a job runs (one walk at a time, `intervalMs` apart) and call
 * `onExceeded` once when a limit is passed (the caller kills the job). `stop()` makes a last
 * check and resolves to the message, or null when the job stayed within its quota. Between two
 * polls a job can overshoot by what it writes in `intervalMs`; RLIMIT_FSIZE (set by the
 * executors to the byte limit) stops any single file from growing past it.
 */
export function watchDiskQuota(
  dirs: readonly string[],
  q: DiskQuota,
  onExceeded: (message: string) => void,
  intervalMs = 250,
): { stop(): Promise<string | null> } {
  let exceeded: string | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const check = async () => {
    const m = quotaMessage(await diskUsage(dirs, q.maxFiles), q);
    if (m && !exceeded) {
      exceeded = m;
      onExceeded(m);
    }
  };
  const tick = () => {
    inFlight = check().finally(() => {
      if (!stopped && !exceeded) timer = setTimeout(tick, intervalMs);
    });
  };
  timer = setTimeout(tick, intervalMs);
  let final: Promise<string | null> | undefined;
  return {
    stop() {
      return (final ??= (async () => {
        stopped = true;
        clearTimeout(timer);
        await inFlight;
        if (!exceeded) await check();
        return exceeded;
      })());
    },
  };
}
