import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Files a job left in its folder (relative paths, sorted), without the program itself. */
export function listArtifacts(jobDir: string, maxFiles = 200, maxDepth = 4): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= maxFiles) return;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (depth < maxDepth) walk(join(dir, e.name), r, depth + 1);
      } else if (r !== "code/main.py") out.push(r);
    }
  };
  walk(jobDir, "", 0);
  return out;
}
