// The corpus index (corpusPaths().index): the accepted tasks of the last corpus build with their suites, and the
// `suite:NAME` lists every command that takes task ids expands through it. The file is snake_case JSON (like
// every file and --json output of the kit); in TypeScript it is the camelCase CorpusIndex, mapped here only.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { listBuiltinTasks } from "../builtin/build-builtin.js";
import { BUILTIN_IDS } from "../builtin/registry.js";
import { GymError } from "../errors.js";
import { camelKeys, snakeKeys } from "../../util/index.js";
import type { Modality, TaskType } from "../types.js";
import type { SuitedTask } from "./corpus-store.js";
import { corpusPaths } from "./paths.js";

/** No index file: the corpus has not been built (here, or under this OPENMLE_CACHE). */
export class CorpusMissingError extends GymError {}
/** An index file that is not what writeCorpusIndex writes. */
export class CorpusIndexError extends GymError {}
/** `suite:NAME` with a NAME that is no suite. */
export class UnknownSuiteError extends GymError {}

const MODALITIES = [
  "tabular",
  "image",
  "text",
  "time_series",
  "audio",
  "multimodal",
  "other",
] as const satisfies readonly Modality[];
const TASK_TYPES = ["classification", "regression", "ranking", "other"] as const satisfies readonly TaskType[];

/** One accepted task as index.json holds it. */
const IndexTaskFile = z
  .object({
    id: z.string().min(1),
    candidate: z.string(),
    study: z.string(),
    source: z.enum(["r", "statsmodels", "sklearn", "npm", "debian"]),
    package: z.string(),
    modality: z.enum(MODALITIES),
    task_type: z.enum(TASK_TYPES),
    metric: z.string(),
    n_rows: z.number().int().nonnegative(),
    package_bytes: z.number().int().nonnegative(),
    package_hash: z.string(),
    headroom: z
      .object({ constant: z.number(), reference: z.number(), reference_model: z.string(), normalised: z.number() })
      .strict(),
    synthesised: z.boolean(),
    suite: z.enum(["train", "heldout"]),
  })
  .strict();

/** index.json: `{ build_id, built_at (ISO 8601), manifest_hash, tasks }`, tasks by id. */
export const CorpusIndexFile = z
  .object({
    build_id: z.string().min(1),
    built_at: z.string(),
    manifest_hash: z.string(),
    tasks: z.array(IndexTaskFile),
  })
  .strict();

export interface CorpusIndex {
  readonly buildId: string;
  /** ISO 8601, UTC. */
  readonly builtAt: string;
  /** Hash of data/corpus/candidates.json the build read. */
  readonly manifestHash: string;
  readonly tasks: readonly SuitedTask[];
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function toFile(index: CorpusIndex): z.infer<typeof CorpusIndexFile> {
  return snakeKeys({ ...index, tasks: [...index.tasks].sort(byId) }) as z.infer<typeof CorpusIndexFile>;
}

function fromFile(f: z.infer<typeof CorpusIndexFile>): CorpusIndex {
  return camelKeys(f) as CorpusIndex;
}

/** Write the index (tasks by id, 2-space JSON) through a temporary file, so a reader never sees half of it. */
export function writeCorpusIndex(index: CorpusIndex, dir?: string): string {
  const path = corpusPaths(dir).index;
  const file = CorpusIndexFile.parse(toFile(index));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  return path;
}

/** Read the index of the corpus at `dir` (default corpusPaths()); CorpusMissingError when it was never built. */
export async function readCorpusIndex(dir?: string): Promise<CorpusIndex> {
  const path = corpusPaths(dir).index;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    throw new CorpusMissingError(
      `no corpus index at ${path}: the corpus has not been built; run \`openmle task build-corpus\` first`,
      path,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CorpusIndexError(
      `${path} is not valid JSON (${(e as Error).message}); rebuild it with \`openmle task build-corpus\``,
      path,
    );
  }
  const parsed = CorpusIndexFile.safeParse(json);
  if (!parsed.success)
    throw new CorpusIndexError(
      `${path} is not a corpus index: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; ")}; rebuild it with \`openmle task build-corpus\``,
      path,
    );
  return fromFile(parsed.data);
}

/** core: the built-in tasks; train and heldout: the corpus's suites; all: train and heldout (not core). */
export const SUITES = ["core", "train", "heldout", "all"] as const;
export type SuiteListName = (typeof SUITES)[number];

/** A task of a suite as `openmle task list --suite` shows it (core tasks have no study or headroom). */
export interface SuiteEntry {
  readonly id: string;
  readonly suite: "core" | "train" | "heldout";
  readonly modality: Modality;
  readonly taskType: TaskType;
  readonly metric: string;
  readonly study: string | null;
  /** The reference model's normalised headroom (0 = constant, 1 = perfect); null for core. */
  readonly headroom: number | null;
}

export function isSuiteName(name: string): name is SuiteListName {
  return (SUITES as readonly string[]).includes(name);
}

function checkSuite(name: string): asserts name is SuiteListName {
  if (!isSuiteName(name))
    throw new UnknownSuiteError(`unknown suite "${name}": the suites are ${SUITES.join(", ")}`, name);
}

/** The core suite: the built-in tasks, in BUILTIN_IDS order (no index needed). */
export function coreSuite(): SuiteEntry[] {
  return listBuiltinTasks().map((t) => ({
    id: t.id,
    suite: "core",
    modality: t.modality,
    taskType: t.taskType,
    metric: t.metric,
    study: null,
    headroom: null,
  }));
}

/** A suite's tasks in a stable order: core in BUILTIN_IDS order, the corpus's by id. `index` is unused for core. */
export function suiteTasks(index: CorpusIndex | null, name: string): SuiteEntry[] {
  checkSuite(name);
  if (name === "core") return coreSuite();
  if (!index)
    throw new CorpusMissingError(`suite ${name} needs the corpus index: run \`openmle task build-corpus\``, name);
  return [...index.tasks]
    .filter((t) => name === "all" || t.suite === name)
    .sort(byId)
    .map((t) => ({
      id: t.id,
      suite: t.suite,
      modality: t.modality,
      taskType: t.taskType,
      metric: t.metric,
      study: t.study,
      headroom: t.headroom.normalised,
    }));
}

/**
 * A comma-separated task list with `suite:NAME` items expanded to that suite's ids (suiteTasks' order), the rest
 * kept as given (ids or folders), blanks dropped, duplicates removed (first one kept). The index is loaded once,
 * and only when a corpus suite is named (`suite:core` needs none).
 */
export async function expandTaskList(
  list: string,
  opts: { readonly loadIndex: () => Promise<CorpusIndex> },
): Promise<string[]> {
  let index: Promise<CorpusIndex> | undefined;
  const out: string[] = [];
  for (const item of list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!item.startsWith("suite:")) {
      out.push(item);
      continue;
    }
    const name = item.slice("suite:".length);
    checkSuite(name);
    const ids =
      name === "core" ? [...BUILTIN_IDS] : suiteTasks(await (index ??= opts.loadIndex()), name).map((t) => t.id);
    out.push(...ids);
  }
  return [...new Set(out)];
}
