import type { ZodType } from "zod";
import { readFileFlag } from "./path-flag.js";
import { UsageError } from "./run-cli.js";

/**
 * A `--config FILE` for a config schema: JSON whose keys and types the schema checks, before any
 * work starts. Every problem comes back as one line that names the key, e.g.
 * `--config run.json: unknown key "sed" (did you mean "seed"?)`, `--config run.json: seed: expected
 * number, received string`.
 */
export function readConfigFile(file: string, schema: ZodType): Record<string, unknown> {
  const pass = "Pass a JSON file of settings (openmle config schema lists them).";
  const text = readFileFlag("--config", file, pass);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--config ${file}: ${(e as Error).message.split("\n")[0]}. ${pass}`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw new UsageError(`--config ${file}: expected a JSON object of settings.`);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new UsageError(`--config ${file}: ${formatIssues(parsed.error.issues, schema)}`);
  return raw as Record<string, unknown>;
}

/** zod issues as one line; unknown keys name the nearest valid key at the same place. */
export function formatIssues(
  issues: readonly { code: string; path: readonly PropertyKey[]; message: string; keys?: readonly string[] }[],
  schema: ZodType,
): string {
  return issues
    .map((i) => {
      const at = i.path.map(String).join(".");
      if (i.code === "unrecognized_keys" && i.keys) {
        const valid = keysAt(schema, i.path);
        return i.keys
          .map((k) => {
            const near = nearest(k, valid);
            return `unknown key "${at ? `${at}.` : ""}${k}"${near ? ` (did you mean "${near}"?)` : ""}`;
          })
          .join("; ");
      }
      return `${at || "(top level)"}: ${i.message.replace(/^Invalid (input|option): /, "")}`;
    })
    .join("; ");
}

/** The keys of the object schema at `path` (through defaults and optionals). */
function keysAt(schema: ZodType, path: readonly PropertyKey[]): string[] {
  let s: unknown = schema;
  const unwrap = (x: unknown): unknown => {
    let cur = x as { def?: { innerType?: unknown; out?: unknown }; shape?: unknown };
    // Through defaults/optionals (innerType) and pipes such as z.preprocess (out).
    while (cur && !cur.shape && (cur.def?.innerType || cur.def?.out))
      cur = (cur.def.innerType ?? cur.def.out) as typeof cur;
    return cur;
  };
  for (const p of path) s = (unwrap(s) as { shape?: Record<string, unknown> })?.shape?.[String(p)];
  const shape = (unwrap(s) as { shape?: Record<string, unknown> })?.shape;
  return shape ? Object.keys(shape) : [];
}

/** The candidate closest to `word` by edit distance, when it is close enough to be a typo. */
export function nearest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best !== null && bestD <= Math.max(2, Math.floor(best.length / 3)) ? best : null;
}

/** Levenshtein distance: insertions, deletions and substitutions each cost 1. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}
