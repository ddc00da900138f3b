// The corpus index (corpusPaths().index): the accepted tasks of the last corpus build with their suites, and the
// `suite:NAME` lists every command that takes task ids expands through it (refusing the sealed suite:confirm:
// sealed-suite.ts). The file is snake_case JSON (like every file and --json output of the kit); in TypeScript it is
// the camelCase CorpusIndex, mapped here only.
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
import { assertItemNotConfirm, confirmTaskIds, peekConfirmIds, sealedSuiteError } from "./sealed-suite.js";
import { SUITE_NAMES, type SuiteName } from "./suites.js";

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
    suite: z.enum(SUITE_NAMES),
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

/**
 * Read the index of the corpus at `dir` (default corpusPaths()); CorpusMissingError when it was never built,
 * CorpusIndexError when it is not an index, or one written before the dev/confirm split (issue 60: a task of suite
 * "heldout"), which is not mapped: its held-out tasks are to be split by the rules, so the index is rebuilt.
 */
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
  const tasks = (json as { tasks?: unknown } | null)?.tasks;
  if (Array.isArray(tasks) && tasks.some((t) => (t as { suite?: unknown } | null)?.suite === "heldout"))
    throw new CorpusIndexError(
      `${path} was written before the held-out suite was split into dev and confirm (it has suite "heldout"): ` +
        "rebuild it with `openmle task build-corpus` (unchanged candidates come from its cache)",
      path,
    );
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

/**
 * core: the built-in tasks; train, dev and confirm: the corpus's suites (confirm is sealed: sealed-suite.ts); all:
 * train and dev (not core, not confirm).
 */
export const SUITES = ["core", "train", "dev", "confirm", "all"] as const;
export type SuiteListName = (typeof SUITES)[number];
/** Old suite names still accepted: `heldout` (before issue 60) is `dev`, what recorded runs and bench scripts name. */
export const SUITE_ALIASES: Readonly<Record<string, SuiteListName>> = { heldout: "dev" };

/** A task of a suite as `openmle task list --suite` shows it (core tasks have no study or headroom). */
export interface SuiteEntry {
  readonly id: string;
  readonly suite: "core" | SuiteName;
  readonly modality: Modality;
  readonly taskType: TaskType;
  readonly metric: string;
  readonly study: string | null;
  /** The reference model's normalised headroom (0 = constant, 1 = perfect); null for core. */
  readonly headroom: number | null;
}

/** A suite's name, its aliases (SUITE_ALIASES) not included. */
export function isSuiteName(name: string): name is SuiteListName {
  return (SUITES as readonly string[]).includes(name);
}

/** The suite a name or alias stands for; UnknownSuiteError listing the suites otherwise. */
export function canonicalSuite(name: string): SuiteListName {
  const suite = isSuiteName(name) ? name : SUITE_ALIASES[name];
  if (suite === undefined)
    throw new UnknownSuiteError(
      `unknown suite "${name}": the suites are ${SUITES.join(", ")} (heldout is the old name of dev)`,
      name,
    );
  return suite;
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

/**
 * A suite's tasks (a name or an alias) in a stable order: core in BUILTIN_IDS order, the corpus's by id. `index` is
 * unused for core. Listing confirm is allowed (ids, not scores); running it goes through expandTaskList's seal.
 */
export function suiteTasks(index: CorpusIndex | null, suite: string): SuiteEntry[] {
  const name = canonicalSuite(suite);
  if (name === "core") return coreSuite();
  if (!index)
    throw new CorpusMissingError(`suite ${name} needs the corpus index: run \`openmle task build-corpus\``, name);
  return [...index.tasks]
    .filter((t) => (name === "all" ? t.suite !== "confirm" : t.suite === name))
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

/** How expandTaskList finds the corpus index and whether the sealed suite may be expanded. */
export interface ExpandTaskListOptions {
  /** The corpus index, for `suite:NAME` items (may build the corpus: ensureCorpus). */
  readonly loadIndex: () => Promise<CorpusIndex>;
  /** Registered experiments only (kit/experiment): expand `suite:confirm` and pass confirm tasks. Default false. */
  readonly allowConfirm?: boolean;
  /** The confirm ids when no suite was named (default peekConfirmIds(): the index file as it is, never a build). */
  readonly peekConfirm?: () => ReadonlySet<string>;
}

/**
 * A comma-separated task list with `suite:NAME` items expanded to that suite's ids (suiteTasks' order; `heldout` is
 * `dev`), the rest kept as given (ids or folders), blanks dropped, duplicates removed (first one kept). The index
 * is loaded once, and only when a corpus suite is named (`suite:core` needs none). The seal: without
 * `allowConfirm`, `suite:confirm` and every item that stands for a confirm task (an id, or a folder of one:
 * itemTaskIds) throw SealedSuiteError; plain items are checked against the loaded index, else peekConfirm.
 */
export async function expandTaskList(list: string, opts: ExpandTaskListOptions): Promise<string[]> {
  let index: Promise<CorpusIndex> | undefined;
  const out: string[] = [];
  const plain: string[] = [];
  for (const item of list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (!item.startsWith("suite:")) {
      out.push(item);
      plain.push(item);
      continue;
    }
    const name = canonicalSuite(item.slice("suite:".length));
    if (name === "confirm" && !opts.allowConfirm) throw sealedSuiteError();
    const ids =
      name === "core" ? [...BUILTIN_IDS] : suiteTasks(await (index ??= opts.loadIndex()), name).map((t) => t.id);
    out.push(...ids);
  }
  const outside = plain.filter((x) => !(BUILTIN_IDS as readonly string[]).includes(x));
  if (!opts.allowConfirm && outside.length) {
    const confirm = index ? confirmTaskIds(await index) : (opts.peekConfirm ?? peekConfirmIds)();
    for (const item of outside) assertItemNotConfirm(item, confirm);
  }
  return [...new Set(out)];
}
