import { copyFileSync, writeFileSync } from "node:fs";
import type { OutputKind } from "./metrics/registry.js";
import { pythonHelper } from "./python.js";
import type { SplitSpec, TaskSpec } from "./task-spec.js";

/** The file beside a built package's utils/prepare.py that holds its config (read by prepare.py at import). */
export const PREPARE_CONFIG = "prepare_config.json";

/** What the generated prepare.py reads from utils/prepare_config.json: the spec's data-handling fields. */
export interface PrepareConfig {
  /** File name of the raw table under raw/. */
  readonly table: string;
  readonly target: string;
  readonly idColumn: string;
  readonly drop: readonly string[];
  readonly metric: string;
  /** The metric's submission shape (registry `output`). */
  readonly output: OutputKind;
  readonly k: number;
  readonly positiveClass: string | null;
  readonly split: SplitSpec;
  readonly maxRows: number | null;
  readonly fileColumn: string | null;
  /** Folder of asset files under raw/ ("files"), or null. */
  readonly filesDir: string | null;
}

/** The prepare config of a parsed spec (id column resolved); its raw table is raw/`table`, assets raw/`filesDir`. */
export function prepareConfig(
  spec: TaskSpec & { readonly idColumn: string },
  table: string,
  filesDir: string | undefined,
  output: OutputKind,
): PrepareConfig {
  return {
    table,
    target: spec.target,
    idColumn: spec.idColumn,
    drop: spec.drop,
    metric: spec.metric,
    output,
    k: spec.k,
    positiveClass: spec.positiveClass ?? null,
    split: spec.split,
    maxRows: spec.maxRows ?? null,
    fileColumn: spec.fileColumn ?? null,
    filesDir: filesDir ?? null,
  };
}

/**
 * Write a package's prepare step: utils/prepare.py is python/prepare_template.py byte for byte, and the
 * config goes to `configFile` as JSON. No text of the spec is ever part of the code, so no quote, backslash
 * or newline in a field can change what prepare.py runs (issue 25 point 2: it used to be pasted into a
 * `r'''…'''` literal).
 */
export function writePrepare(prepareFile: string, configFile: string, config: PrepareConfig): void {
  copyFileSync(pythonHelper("prepare_template.py"), prepareFile);
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
}
