import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { projectRoot } from "../gym/index.js";
import {
  defaultGrammarParams,
  handSetGrammarParams,
  uniformGrammarParams,
  paramsFromJson,
  paramsToJson,
  type GrammarParams,
} from "../policy/grammar/index.js";
import { checkJsonText, configHash, MAX_JSON_BYTES, type Workspace } from "../store/index.js";
import { readBoundedText } from "../util/index.js";
import {
  checkpointExists,
  checkpointSummaryRows,
  readCheckpointRow,
  writeCheckpointRow,
  type CheckpointRow,
} from "./checkpoint-store.js";
import { CheckpointExistsError, CheckpointNotFoundError, CheckpointVersionError, ErlError } from "./errors.js";

/** Where a checkpoint's params came from. */
export type CheckpointSource = "sft" | "rl" | "import" | "loop";

/** A stored, named, versioned set of grammar-policy parameters (table `policy_checkpoints`). */
export interface Checkpoint {
  readonly name: string;
  readonly policy: "grammar";
  /** The checkpoint it was trained from ("default" for the built-in params), or null. */
  readonly parent: string | null;
  readonly source: CheckpointSource;
  /** The dataset it was trained on (sft) or the RL run id (rl). */
  readonly dataset: string | null;
  readonly params: GrammarParams;
  readonly config: unknown;
  readonly configHash: string;
  readonly metrics: Record<string, unknown>;
  readonly createdAt: string;
  /** GrammarParams.version of the stored params. */
  readonly formatVersion: number;
  /** package.json version of the kit that wrote it. */
  readonly kitVersion: string;
}

export type CheckpointSummary = Omit<Checkpoint, "params" | "config">;

export interface CheckpointInput {
  readonly name: string;
  readonly params: GrammarParams;
  readonly parent: string | null;
  readonly source: CheckpointSource;
  readonly dataset?: string | null;
  readonly config?: unknown;
  readonly metrics?: Record<string, unknown>;
}

/** The reserved reference to the built-in params (defaultGrammarParams()). */
export const DEFAULT_CHECKPOINT = "default";
/**
 * The other built-in params by name (reserved): `uniform`, every logit and weight 0 (version 3, so learning
 * reaches the context weights), and `default@1`, the hand-set defaults before context labels (version 1: the
 * params of runs recorded before them).
 */
export const BUILTIN_PARAMS: Readonly<Record<string, () => GrammarParams>> = {
  [DEFAULT_CHECKPOINT]: defaultGrammarParams,
  uniform: uniformGrammarParams,
  "default@1": handSetGrammarParams,
};
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

let kitVersionCache: string | undefined;
/** The kit's package.json version (written with every checkpoint). */
export function kitVersion(): string {
  return (kitVersionCache ??= (
    JSON.parse(readFileSync(resolve(projectRoot(), "package.json"), "utf8")) as { version: string }
  ).version);
}

/** The part of a version that must match to load: "1" of 1.4.2, and "0.1" of 0.1.3 (0.x minors break). */
export function kitMajor(version: string): string {
  const [a = "0", b = "0"] = version.split(".");
  return a === "0" ? `0.${b}` : a;
}

/**
 * Store `params` under `name`. Refuses an existing name (CheckpointExistsError) unless `replace`;
 * a replace deletes and inserts in one transaction, so a failure leaves the old checkpoint.
 */
export async function saveCheckpoint(
  ws: Workspace,
  input: CheckpointInput,
  opts: { replace?: boolean } = {},
): Promise<Checkpoint> {
  if (!NAME.test(input.name) || input.name in BUILTIN_PARAMS || input.name.endsWith(".json")) {
    throw new ErlError(
      `checkpoint name "${input.name}" is not allowed: use letters, digits, . _ : - (not ` +
        `${Object.keys(BUILTIN_PARAMS).join(", ")}, not ending in .json)`,
    );
  }
  // Round-trip through the JSON format so what is stored is exactly what loads.
  const params = paramsFromJson(paramsToJson(input.params));
  const existing = await checkpointExists(ws, input.name);
  if (existing && !opts.replace) {
    throw new CheckpointExistsError(
      `checkpoint "${input.name}" already exists in ${ws.dir}: pick another name or pass --replace`,
    );
  }
  const config = input.config ?? null;
  const row: CheckpointRow = {
    name: input.name,
    policy: "grammar",
    format_version: params.version,
    kit_version: kitVersion(),
    parent: input.parent,
    source: input.source,
    dataset: input.dataset ?? null,
    params: paramsToJson(params),
    config: JSON.stringify(config),
    config_hash: configHash(config),
    metrics: JSON.stringify(input.metrics ?? {}),
    created_at: new Date(),
  };
  await writeCheckpointRow(ws, row, existing);
  return loadCheckpoint(ws, input.name);
}

/**
 * A stored JSON column of checkpoint `name`, bounded before anything parses and walks it: a crafted Parquet
 * import may hold params nested 20,000 levels deep (JsonBoundsError, one line naming the checkpoint).
 */
function storedJson(text: string, name: string, column: string): string {
  checkJsonText(text, `checkpoint "${name}" (its ${column})`);
  return text;
}

function summaryOf(r: Omit<CheckpointRow, "params" | "config">): CheckpointSummary {
  return {
    name: r.name,
    policy: "grammar",
    parent: r.parent,
    source: r.source as CheckpointSource,
    dataset: r.dataset,
    configHash: r.config_hash,
    metrics: r.metrics ? (JSON.parse(storedJson(r.metrics, r.name, "metrics")) as Record<string, unknown>) : {},
    createdAt: r.created_at instanceof Date ? r.created_at.toISOString() : String(r.created_at),
    formatVersion: r.format_version,
    kitVersion: r.kit_version,
  };
}

/** Load a checkpoint; CheckpointNotFoundError lists the names there are, CheckpointVersionError says which version
 * wrote it. */
export async function loadCheckpoint(ws: Workspace, name: string): Promise<Checkpoint> {
  const r = await readCheckpointRow(ws, name);
  if (!r) {
    const names = (await listCheckpoints(ws)).map((c) => c.name);
    throw new CheckpointNotFoundError(
      `no checkpoint "${name}" in ${ws.dir}; ` +
        (names.length ? `it has: ${names.join(", ")}` : "it has none yet (train one with `openmle sft train`)") +
        `, or use "default"`,
    );
  }
  if (
    r.policy !== "grammar" ||
    ![1, 2, 3].includes(r.format_version) ||
    kitMajor(r.kit_version) !== kitMajor(kitVersion())
  ) {
    throw new CheckpointVersionError(
      `checkpoint "${name}" was written by kit ${r.kit_version} (policy ${r.policy}, params format ` +
        `${r.format_version}); ` +
        `this kit ${kitVersion()} reads grammar params formats 1, 2 and ` +
        `3 of kit ${kitMajor(kitVersion())}.x: open it with kit ${r.kit_version} and export the ` +
        `params as JSON, or retrain it`,
    );
  }
  const params = paramsFromJson(storedJson(r.params, name, "params"));
  return { ...summaryOf(r), params, config: r.config ? JSON.parse(storedJson(r.config, name, "config")) : null };
}

/** Every checkpoint in the workspace, oldest first (without params). */
export async function listCheckpoints(ws: Workspace): Promise<CheckpointSummary[]> {
  return (await checkpointSummaryRows(ws)).map(summaryOf);
}

/**
 * Resolve a `--params` reference: a built-in name (BUILTIN_PARAMS: default, uniform, default@1) → its params; a
 * path ending in .json that exists → its params (paramsFromJson); anything else → a checkpoint name in `ws`.
 * `checkpoint` is the built-in name, the resolved file path, or the checkpoint name.
 */
export async function resolvePolicyParams(
  ref: string,
  ws?: Workspace,
): Promise<{ params: GrammarParams; checkpoint: string }> {
  const builtin = BUILTIN_PARAMS[ref];
  if (builtin) return { params: builtin(), checkpoint: ref };
  if (ref.endsWith(".json")) {
    const path = resolve(ref);
    if (!existsSync(path))
      throw new ErlError(
        `params file ${path} does not exist: pass an existing .json file, a checkpoint name, or "default"`,
      );
    try {
      // Bounded: a params file is read whole and walked (a FIFO, /dev/zero or JSON nested too deep is refused).
      const text = readBoundedText(path, MAX_JSON_BYTES);
      checkJsonText(text, "it");
      return { params: paramsFromJson(text), checkpoint: path };
    } catch (e) {
      throw new ErlError(`params file ${path}: ${(e as Error).message}`, { cause: e });
    }
  }
  if (!ws)
    throw new ErlError(
      `"${ref}" names a checkpoint, which needs a workspace: pass --workspace DIR (or a .json params ` +
        `file, or "default")`,
    );
  const c = await loadCheckpoint(ws, ref);
  return { params: c.params, checkpoint: c.name };
}
