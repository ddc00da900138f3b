/** A plain row: what `query` returns and `append` takes. */
export type Row = Record<string, unknown>;

/** A statement's parameters: positional (`?`, `$1`) or named (`$name`). */
export type Params = readonly unknown[] | Record<string, unknown>;

/** DuckDB → plain JS: bigints become numbers when exact, Dates stay Dates, lists become arrays. */
export function toPlain(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value;
  }
  if (Array.isArray(value)) return value.map(toPlain);
  if (value && typeof value === "object" && !(value instanceof Date) && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toPlain(v);
    return out;
  }
  return value;
}
