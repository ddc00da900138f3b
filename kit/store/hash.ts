import { createHash } from "node:crypto";

/** JSON with sorted keys, so equal objects hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function stableHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 16);
}

/** Keys that say where or under which name a run happens, not what it computes. */
const IGNORED = /^(workspace|runName|name|out|outDir|output|dir|path|.*(Dir|Path|File))$/;

function strip(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(strip);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (!IGNORED.test(k)) out[k] = strip(v);
  return out;
}

/** The hash stored with every run: equal for configs that differ only in paths and run names. */
export function configHash(config: unknown): string {
  return stableHash(strip(config));
}
