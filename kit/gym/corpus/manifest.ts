import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { GymError } from "../errors.js";
import { projectRoot } from "../python.js";
import type { Candidate } from "./types.js";

/** The committed manifest was unreadable, malformed or held the same id twice. */
export class ManifestError extends GymError {}

const ID = /^[a-z0-9][a-z0-9._-]*$/;

/** FramingHints of types.ts, strict: a misspelt hint is an error, not silently ignored. */
export const FramingHintsSchema = z
  .object({
    targets: z.array(z.string().min(1)).min(1).optional(),
    modality: z.enum(["tabular", "image", "text", "time_series", "audio", "multimodal", "other"]).optional(),
    drop: z.array(z.string().min(1)).optional(),
    split: z
      .object({
        kind: z.enum(["random", "stratified", "time", "group"]).optional(),
        timeColumn: z.string().min(1).optional(),
        groupColumn: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    metric: z.string().min(1).optional(),
  })
  .strict();

/** Candidate of types.ts, strict. */
export const CandidateSchema = z
  .object({
    id: z.string().regex(ID, "lowercase letters, digits, '.', '_' or '-' (folder-safe)"),
    source: z.enum(["r", "statsmodels", "sklearn", "npm", "debian"]),
    package: z.string().min(1),
    version: z.string().min(1),
    object: z.string().min(1),
    module: z.string().min(1).optional(),
    licence: z.string().min(1),
    description: z.string(),
    study: z.string().regex(ID).optional(),
    synthesised: z.boolean().optional(),
    hints: FramingHintsSchema.optional(),
  })
  .strict();

export const ManifestSchema = z.array(CandidateSchema);

/** $OPENMLE_CORPUS_MANIFEST (a researcher's own candidate list), else data/corpus/candidates.json of the project. */
export function defaultManifestPath(): string {
  if (process.env.OPENMLE_CORPUS_MANIFEST) return resolve(process.env.OPENMLE_CORPUS_MANIFEST);
  return join(projectRoot(), "data", "corpus", "candidates.json");
}

/** Validate candidates (a parsed manifest): the schema, then unique ids. Throws ManifestError naming `where`. */
export function parseManifest(json: unknown, where = "the manifest"): Candidate[] {
  const r = ManifestSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new ManifestError(
      `${where} is malformed at ${i.path.join(".") || "(root)"}: ${i.message}. Fix: edit data/corpus/hints.json and ` +
        `regenerate it with npx tsx scripts/corpus-manifest.ts.`,
      where,
    );
  }
  const seen = new Set<string>();
  for (const c of r.data) {
    if (seen.has(c.id))
      throw new ManifestError(
        `${where} holds candidate ${c.id} twice. Fix: give one of them another id in data/corpus/hints.json.`,
        where,
      );
    seen.add(c.id);
  }
  return r.data as Candidate[];
}

/** Read and validate the committed manifest (default data/corpus/candidates.json). */
export function loadManifest(path = defaultManifestPath()): Candidate[] {
  if (!existsSync(path))
    throw new ManifestError(`no corpus manifest at ${path}. Fix: npx tsx scripts/corpus-manifest.ts.`, path);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new ManifestError(`${path} is not JSON (${(e as Error).message}). Fix: regenerate it.`, path, { cause: e });
  }
  return parseManifest(json, path);
}

/** JSON with object keys sorted at every level: the same candidates give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** sha256 (hex) of the candidates' canonical JSON, in their order. */
export function manifestHash(cands: readonly Candidate[]): string {
  return createHash("sha256").update(canonicalJson(cands)).digest("hex");
}
