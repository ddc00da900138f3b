import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** The files under `dirs` of `base` (sorted, recursive), skipping `skip` names. */
export function treeFiles(base: string, dirs: readonly string[], skip: ReadonlySet<string> = new Set()): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (!skip.has(name)) files.push(p);
    }
  };
  for (const d of dirs) walk(join(base, d));
  return files;
}

/** sha256 over the sorted relative paths and bytes of every file under `dirs` (skipping `skip` names). */
export function hashTree(base: string, dirs: readonly string[], skip: ReadonlySet<string> = new Set()): string {
  const h = createHash("sha256");
  for (const f of treeFiles(base, dirs, skip)) {
    h.update(relative(base, f));
    h.update("\0");
    h.update(readFileSync(f));
  }
  return h.digest("hex");
}

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
  const rel = (base: string) => new Map(treeFiles(base, dirs, skip).map((f) => [relative(base, f), f]));
  const [fa, fb] = [rel(a), rel(b)];
  const out: { file: string; line: number | null; a: string | null; b: string | null }[] = [];
  for (const name of [...new Set([...fa.keys(), ...fb.keys()])].sort()) {
    const pa = fa.get(name);
    const pb = fb.get(name);
    if (!pa || !pb) {
      out.push({ file: name, line: null, a: pa ? "(present)" : "(missing)", b: pb ? "(present)" : "(missing)" });
      continue;
    }
    const [ba, bb] = [readFileSync(pa), readFileSync(pb)];
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
