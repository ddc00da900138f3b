import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { confinedFiles, readBounded, readChunks, TreeLimits, type TreeFile } from "./confined-files.js";

/** Past this size a differing file is compared by hash only, not line by line (both would sit in memory). */
const DIFF_MAX_BYTES = 256 * 1024 * 1024;

/**
 * The regular files under `dirs` of `base` (sorted, recursive), skipping `skip` names. The trees are a package's
 * data or prepare.py's outputs, read on the host: links are followed only inside `base`, and a link out, a FIFO or
 * a device is refused (confinedFiles).
 */
function files(base: string, dirs: readonly string[], skip: ReadonlySet<string>): TreeFile[] {
  if (!existsSync(base)) return [];
  return confinedFiles(base, dirs, { what: `folder ${base}`, skip });
}

/** The files under `dirs` of `base` (sorted, recursive), skipping `skip` names: their paths. */
export function treeFiles(base: string, dirs: readonly string[], skip: ReadonlySet<string> = new Set()): string[] {
  return files(base, dirs, skip).map((f) => f.real);
}

/** sha256 over the sorted relative paths and bytes of every file under `dirs` (skipping `skip` names). */
export function hashTree(base: string, dirs: readonly string[], skip: ReadonlySet<string> = new Set()): string {
  const h = createHash("sha256");
  let left = TreeLimits.parse({}).maxBytes;
  for (const f of files(base, dirs, skip)) {
    h.update(f.rel);
    h.update("\0");
    left -= readChunks(f, left, `folder ${base}`, (c) => h.update(c));
  }
  return h.digest("hex");
}

const fileHash = (f: TreeFile, what: string) => {
  const h = createHash("sha256");
  readChunks(f, TreeLimits.parse({}).maxBytes, what, (c) => h.update(c));
  return h.digest("hex");
};

/**
 * Differences between two trees: files only in one, and for each file present in both with other
 * bytes, its first differing line (1-based) with both versions (cut at 200 characters).
 */
export function diffTrees(
  a: string,
  b: string,
  dirs: readonly string[],
  skip: ReadonlySet<string> = new Set(),
): { file: string; line: number | null; a: string | null; b: string | null }[] {
  const rel = (base: string) => new Map(files(base, dirs, skip).map((f) => [f.rel, f]));
  const [fa, fb] = [rel(a), rel(b)];
  const out: { file: string; line: number | null; a: string | null; b: string | null }[] = [];
  for (const name of [...new Set([...fa.keys(), ...fb.keys()])].sort()) {
    const pa = fa.get(name);
    const pb = fb.get(name);
    if (!pa || !pb) {
      out.push({ file: name, line: null, a: pa ? "(present)" : "(missing)", b: pb ? "(present)" : "(missing)" });
      continue;
    }
    if (pa.size > DIFF_MAX_BYTES || pb.size > DIFF_MAX_BYTES) {
      if (fileHash(pa, `folder ${a}`) !== fileHash(pb, `folder ${b}`))
        out.push({ file: name, line: null, a: "(differs; too large to show the line)", b: "(differs)" });
      continue;
    }
    const [ba, bb] = [readBounded(pa, DIFF_MAX_BYTES, `folder ${a}`), readBounded(pb, DIFF_MAX_BYTES, `folder ${b}`)];
    if (ba.equals(bb)) continue;
    const [la, lb] = [ba.toString("utf8").split("\n"), bb.toString("utf8").split("\n")];
    let i = 0;
    while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
    out.push({
      file: name,
      line: i + 1,
      a: la[i]?.slice(0, 200) ?? "(end of file)",
      b: lb[i]?.slice(0, 200) ?? "(end of file)",
    });
  }
  return out;
}
