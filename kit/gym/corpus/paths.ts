import { join, resolve } from "node:path";
import { projectRoot } from "../python.js";

/**
 * Where the corpus lives (nothing of it is committed): $OPENMLE_CACHE/corpus, else <project root>/.cache/corpus.
 * raw/<candidate>/ holds each export (table.csv, files/, profile.json), tasks/<task>/ the built packages,
 * index.json the accepted tasks with their suites, workspace/ the DuckDB workspace with the funnel's records.
 */
export function corpusDir(dir?: string): string {
  if (dir) return resolve(dir);
  if (process.env.OPENMLE_CACHE) return join(resolve(process.env.OPENMLE_CACHE), "corpus");
  return join(projectRoot(), ".cache", "corpus");
}

export function corpusPaths(dir?: string) {
  const root = corpusDir(dir);
  return {
    root,
    raw: join(root, "raw"),
    tasks: join(root, "tasks"),
    index: join(root, "index.json"),
    workspace: join(root, "workspace"),
  } as const;
}
