import {
  Bool,
  Float64,
  Int32,
  Int64,
  List,
  Field,
  Table,
  TimestampMillisecond,
  Type,
  Utf8,
  vectorFromArray,
  type DataType,
  type Vector,
} from "apache-arrow";
import { DuckDBTypeId, type DuckDBType } from "@duckdb/node-api";
import { WorkspaceError } from "./errors.js";
import { quoteIdent } from "./quote-ident.js";
import type { Params } from "./values.js";
import type { Workspace } from "./workspace.js";

/**
 * Arrow in and out. @duckdb/node-api has no Arrow bridge and the arrow extension cannot be
 * downloaded here, so columns are converted in JS: fine for notebook-sized results; for
 * bulk data use Parquet (parquet.ts), which DuckDB reads and writes natively.
 */

function arrowTypeFor(t: DuckDBType): DataType {
  switch (t.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return new Bool();
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
      return new Int32();
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UINTEGER:
      return new Int64();
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.DECIMAL:
      return new Float64();
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_TZ:
    case DuckDBTypeId.DATE:
      return new TimestampMillisecond();
    case DuckDBTypeId.LIST: {
      const child = arrowTypeFor((t as unknown as { valueType: DuckDBType }).valueType);
      return new List(new Field("item", child, true));
    }
    default:
      return new Utf8();
  }
}

function toArrowValue(v: unknown, type: DataType): unknown {
  if (v === null || v === undefined) return null;
  switch (type.typeId) {
    case Type.Int:
      return (type as Int64).bitWidth === 64 ? BigInt(v as number | bigint) : Number(v);
    case Type.Float:
      return Number(v);
    case Type.Timestamp:
      return v instanceof Date ? v.getTime() : Number(v);
    case Type.List: {
      const child = (type as List).children[0]!.type;
      return (v as unknown[]).map((x) => toArrowValue(x, child));
    }
    case Type.Bool:
      return Boolean(v);
    default:
      return typeof v === "string" ? v : JSON.stringify(v);
  }
}

/** Run a query and return its result as an Arrow table (types mapped column by column). */
export async function toArrow(ws: Workspace, sql: string, params?: Params): Promise<Table> {
  const { names, types, columns } = await ws.queryColumns(sql, params);
  const vectors: Record<string, Vector> = {};
  names.forEach((name, i) => {
    const type = arrowTypeFor(types[i]!);
    vectors[name] = vectorFromArray(
      columns[i]!.map((v) => toArrowValue(v, type)),
      type,
    );
  });
  return new Table(vectors);
}

function duckTypeFor(t: DataType): string {
  switch (t.typeId) {
    case Type.Bool:
      return "BOOLEAN";
    case Type.Int:
      return (t as Int32).bitWidth > 32 ? "BIGINT" : "INTEGER";
    case Type.Float:
    case Type.Decimal:
      return "DOUBLE";
    case Type.Timestamp:
    case Type.Date:
      return "TIMESTAMP";
    case Type.List:
      return `${duckTypeFor((t as List).children[0]!.type)}[]`;
    default:
      return "VARCHAR";
  }
}

function fromArrowValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === "object" && v !== null && "toArray" in v && typeof (v as Vector).toArray === "function") {
    return Array.from((v as Vector).toArray() as ArrayLike<unknown>, fromArrowValue);
  }
  return v;
}

/**
 * Load an Arrow table into a workspace table: appended to an existing table (columns by name),
 * or created first with `{ create: true }`.
 */
export async function fromArrow(
  ws: Workspace,
  table: string,
  data: Table,
  opts: { create?: boolean } = {},
): Promise<number> {
  const fields = data.schema.fields;
  if (opts.create) {
    const cols = fields.map((f) => `${quoteIdent(f.name)} ${duckTypeFor(f.type)}`).join(", ");
    await ws.exec(`CREATE TABLE ${quoteIdent(table)} (${cols})`);
    ws.forgetColumns(table);
  } else {
    const { names } = await ws.columns(table).catch((e) => {
      throw new WorkspaceError(
        `fromArrow: table "${table}" does not exist; pass { create: true } to create it.`,
        ws.dir,
        { cause: e },
      );
    });
    const missing = fields.map((f) => f.name).filter((n) => !names.includes(n));
    if (missing.length) {
      throw new WorkspaceError(`fromArrow: table "${table}" has no column(s) ${missing.join(", ")}.`, ws.dir);
    }
  }
  const columns = fields.map((f) => data.getChild(f.name)!);
  const rows: Record<string, unknown>[] = [];
  for (let r = 0; r < data.numRows; r++) {
    const row: Record<string, unknown> = {};
    fields.forEach((f, c) => {
      let v = fromArrowValue(columns[c]!.get(r));
      if (f.type.typeId === Type.Timestamp && typeof v === "number") v = new Date(v);
      if (typeof v === "bigint" && f.type.typeId === Type.Int && duckTypeFor(f.type) === "INTEGER") v = Number(v);
      row[f.name] = v;
    });
    rows.push(row);
  }
  return ws.append(table, rows);
}
