import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { pythonHelper, projectRoot } from "../python.js";
import type { Candidate } from "./types.js";
import { CorpusExportError } from "./corpus-jail.js";

/** The corpus's R script (kit/gym/corpus/r/export.R, read from the project root like the .py harnesses). */
export function rScript(): string {
  return join(projectRoot(), "kit", "gym", "corpus", "r", "export.R");
}

/** The folder of the gym's Python harnesses (corpus_export.py imports builtin_raw.py from it). */
export function pythonDir(): string {
  return dirname(pythonHelper("corpus_export.py"));
}

/** Real folder of an installed npm package (node_modules may be links, and the jail mounts real paths). */
export function npmPackageDir(name: string): string {
  const dir = join(projectRoot(), "node_modules", name);
  if (!existsSync(dir))
    throw new CorpusExportError(
      `npm package ${name} is not installed. Fix: npm install (package.json lists it).`,
      name,
    );
  return realpathSync(dir);
}

/** The file or folder a non-R candidate reads (undefined for Python modules: they are under /usr). */
export function candidateInput(c: Candidate): string | undefined {
  if (c.source === "npm") {
    const path = join(npmPackageDir(c.package), c.object);
    if (!existsSync(path))
      throw new CorpusExportError(`${c.package} has no ${c.object}. Fix: regenerate the manifest.`, c.id);
    return path;
  }
  if (c.source === "debian") {
    if (!existsSync(c.object))
      throw new CorpusExportError(`${c.object} is missing. Fix: apt-get install ${c.package}.`, c.id);
    return c.object;
  }
  return undefined;
}
