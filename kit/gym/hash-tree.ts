import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** sha256 over the sorted relative paths and bytes of every file under `dirs` (skipping `skip` names). */
export function hashTree(base: string, dirs: readonly string[], skip: ReadonlySet<string> = new Set()): string {
  const h = createHash("sha256");
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
  for (const f of files) {
    h.update(relative(base, f));
    h.update("\0");
    h.update(readFileSync(f));
  }
  return h.digest("hex");
}
