import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;
/**
 * The kit's package root (the folder whose package.json is named "openmle"), found by walking up
 * from this file, so it is the same from kit/ (tsx, vitest) and from dist/kit/ (built).
 */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "openmle")
      return (root = dir);
    const up = dirname(dir);
    if (up === dir)
      throw new Error(`packageRoot: no package.json named "openmle" above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}
