import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildBuiltinTask, getBuiltin } from "./builtin/build-builtin.js";
import { BUILTIN_IDS } from "./builtin/registry.js";
import { readCorpusIndex } from "./corpus/corpus-index.js";
import { corpusPaths } from "./corpus/paths.js";
import { assertItemNotConfirm, assertNotConfirm, peekConfirmIds } from "./corpus/sealed-suite.js";
import { loadTask, TASK_JSON } from "./load-task.js";
import { projectRoot } from "./python.js";
import type { TaskPackage } from "./types.js";

/** Where built-in tasks are cached: opts.cacheDir, else $OPENMLE_CACHE/tasks, else <project root>/.cache/tasks. */
export function taskCacheDir(cacheDir?: string): string {
  if (cacheDir) return resolve(cacheDir);
  if (process.env.OPENMLE_CACHE) return join(resolve(process.env.OPENMLE_CACHE), "tasks");
  return join(projectRoot(), ".cache", "tasks");
}

/**
 * A task from a folder path, a built-in id or a corpus task id (openmle task list --suite all). A folder is
 * loaded as it is; a corpus task from the corpus's tasks/ folder; a built-in id is built once into the cache
 * (`<cache>/<id>`) and loaded. Concurrent resolves of the same id are safe: each builds in its own temporary
 * folder and the first to finish is kept. A task of the sealed suite:confirm (its id, or a folder of one) throws
 * SealedSuiteError unless `allowConfirm` (registered experiments only: kit/gym/corpus/sealed-suite.ts).
 */
export async function resolveTask(
  idOrDir: string,
  opts: { cacheDir?: string; allowConfirm?: boolean } = {},
): Promise<TaskPackage> {
  const asPath = resolve(idOrDir);
  const looksLikePath = idOrDir.includes("/") || idOrDir.startsWith(".");
  if (looksLikePath || (existsSync(asPath) && statSync(asPath).isDirectory())) {
    if (!opts.allowConfirm) assertItemNotConfirm(idOrDir, peekConfirmIds());
    return loadTask(asPath);
  }
  if (!(BUILTIN_IDS as readonly string[]).includes(idOrDir)) {
    const corpus = corpusPaths();
    const index = existsSync(corpus.index) ? await readCorpusIndex() : null;
    if (index?.tasks.some((t) => t.id === idOrDir)) {
      if (!opts.allowConfirm) assertNotConfirm([idOrDir], index);
      return loadTask(join(corpus.tasks, idOrDir));
    }
    getBuiltin(idOrDir); // unknown ids throw listing the valid ones
  }
  const out = join(taskCacheDir(opts.cacheDir), idOrDir);
  if (existsSync(join(out, TASK_JSON))) return loadTask(out);
  return buildBuiltinTask(idOrDir, { outDir: out, keepExisting: true });
}
