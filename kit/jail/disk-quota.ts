import { lstatSync, readdirSync } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { deletedOpenFiles } from "./deleted-open-files.js";

export interface DiskUsage {
  /** Allocated bytes (st_blocks × 512, so sparse files count what they really use). */
  readonly bytes: number;
  readonly files: number;
  /** Of `bytes` and `files`: deleted files the job's processes still hold open or mapped (absent: not looked). */
  readonly deleted?: { readonly bytes: number; readonly files: number };
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

/** Entries a quota check walks synchronously before it hands the walk to diskUsage (a few ms at most). */
export const SYNC_WALK_ENTRIES = 1000;

/**
 * diskUsage without the thread pool, for the small folders most jobs leave: the same sums, or null once
 * more than `maxEntries` entries were seen (the caller then walks asynchronously, not blocking the event
 * loop for a large tree). Each asynchronous step is a round trip through libuv's thread pool, which on a
 * loaded host waits for a core; a job's final check walked 2–5 of them after every run.
 */
export function diskUsageSync(dirs: readonly string[], maxEntries = SYNC_WALK_ENTRIES): DiskUsage | null {
  let bytes = 0;
  let files = 0;
  const stack = [...dirs];
  while (stack.length) {
    const d = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    if (files + names.length > maxEntries) return null;
    for (const n of names) {
      const p = join(d, n);
      try {
        const st = lstatSync(p);
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

/** The message of an exceeded quota (kept in the record's traceback); it says when deleted-open files counted. */
export function quotaMessage(u: DiskUsage, q: DiskQuota): string | null {
  const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
  const d = u.deleted && u.deleted.files > 0 ? u.deleted : null;
  const who = d
    ? `the job holds ${mib(u.bytes)} (its folder ${mib(u.bytes - d.bytes)}; ${d.files} deleted files its ` +
      `processes keep open, counted too: ${mib(d.bytes)})`
    : `the job folder holds ${mib(u.bytes)}`;
  if (u.bytes > q.maxBytes)
    return `disk quota exceeded: ${who}, over its ${mib(q.maxBytes)} limit (limits.diskMb); the job was killed`;
  if (u.files > q.maxFiles)
    return (
      `disk quota exceeded: the job folder${d ? " and the deleted files its processes keep open" : ""} hold` +
      `${d ? "" : "s"} over ${q.maxFiles} files and folders; the job was killed`
    );
  return null;
}

/**
 * Poll the folders' usage while a job runs (one walk at a time, `intervalMs` apart) and call
 * `onExceeded` once when a limit is passed (the caller kills the job). `stop()` makes a last
 * check and resolves to the message, or null when the job stayed within its quota. Between two
 * polls a job can overshoot by what it writes in `intervalMs`; RLIMIT_FSIZE (set by the
 * executors to the byte limit) stops any single file from growing past it. With `pids` (the job's
 * processes now), deleted files they hold open on the folders' filesystems count too
 * (deleted-open-files.ts): unlinked, they leave the walk but not the disk. A folder of up to
 * SYNC_WALK_ENTRIES entries is walked synchronously (diskUsageSync), a larger one through the thread pool.
 */
export function watchDiskQuota(
  dirs: readonly string[],
  q: DiskQuota,
  onExceeded: (message: string) => void,
  opts: { readonly intervalMs?: number; readonly pids?: () => Iterable<number> } = {},
): { stop(): Promise<string | null> } {
  const intervalMs = opts.intervalMs ?? 250;
  let exceeded: string | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  let devs: Promise<Set<number>> | undefined;
  const usage = async (): Promise<DiskUsage> => {
    const u = diskUsageSync(dirs) ?? (await diskUsage(dirs, q.maxFiles));
    const pids = opts.pids ? [...opts.pids()] : [];
    if (pids.length === 0) return opts.pids ? { ...u, deleted: { bytes: 0, files: 0 } } : u;
    const deviceOf = (d: string) =>
      stat(d)
        .then((s): number => s.dev)
        .catch(() => -1);
    devs ??= Promise.all(dirs.map(deviceOf)).then((a) => new Set(a));
    const d = await deletedOpenFiles(pids, await devs);
    return { bytes: u.bytes + d.bytes, files: u.files + d.files, deleted: d };
  };
  const check = async () => {
    const m = quotaMessage(await usage(), q);
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
