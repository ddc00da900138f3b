import { listValue, timestampValue, type DuckDBType, type DuckDBValue, DuckDBTypeId } from "@duckdb/node-api";

/** A plain row: what `query` returns and `append` takes. */
export type Row = Record<string, unknown>;

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

/** Plain JS → a DuckDB value for a column of the given type (used by the appender path). */
export function toDuckValue(value: unknown, type: DuckDBType): DuckDBValue {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case DuckDBTypeId.LIST: {
      const arr = value as unknown[];
      const child = (type as unknown as { valueType: DuckDBType }).valueType;
      return listValue(arr.map((v) => toDuckValue(v, child)));
    }
    case DuckDBTypeId.TIMESTAMP: {
      const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(String(value));
      return timestampValue(BigInt(Math.round(ms)) * 1000n);
    }
    case DuckDBTypeId.BIGINT:
      return typeof value === "bigint" ? value : BigInt(Math.trunc(Number(value)));
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.TINYINT:
      return Math.trunc(Number(value));
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.FLOAT:
      return Number(value);
    case DuckDBTypeId.BOOLEAN:
      return Boolean(value);
    default:
      // VARCHAR and JSON (JSON is a VARCHAR alias): objects are serialised.
      return typeof value === "string" ? value : JSON.stringify(value);
  }
}

/** A converter for one column type, chosen once per column instead of per value. */
export function converterFor(type: DuckDBType): (value: unknown) => DuckDBValue {
  switch (type.typeId) {
    case DuckDBTypeId.VARCHAR:
      return (v) => (v === null || v === undefined ? null : typeof v === "string" ? v : JSON.stringify(v));
    case DuckDBTypeId.DOUBLE:
      return (v) => (v === null || v === undefined ? null : typeof v === "number" ? v : Number(v));
    default:
      return (v) => toDuckValue(v, type);
  }
}
