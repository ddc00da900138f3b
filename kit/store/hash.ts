import { createHash } from "node:crypto";
import { MAX_JSON_DEPTH, tooDeep } from "./bounded-json.js";

/**
 * JSON with sorted keys, so equal objects hash equally whatever their key order. It recurses, so a value nested
 * deeper than MAX_JSON_DEPTH is refused (JsonBoundsError) instead of overflowing the stack: what it hashes may
 * come from outside (a queue message, a stored config).
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, 0);
}

function canonical(value: unknown, depth: number): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (depth >= MAX_JSON_DEPTH) throw tooDeep("a value to hash");
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, depth + 1)}`).join(",")}}`;
}

export function stableHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 16);
}

/** Keys that say where or under which name a run happens, not what it computes. */
const IGNORED = /^(workspace|runName|name|out|outDir|output|dir|path|.*(Dir|Path|File))$/;

function strip(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_JSON_DEPTH) throw tooDeep("a config to hash");
  if (Array.isArray(value)) return value.map((v) => strip(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    if (!IGNORED.test(k)) out[k] = strip(v, depth + 1);
  return out;
}

/** The hash stored with every run: equal for configs that differ only in paths and run names. */
export function configHash(config: unknown): string {
  return stableHash(strip(config));
}
