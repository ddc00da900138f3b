import duckdb from "@duckdb/node-bindings";
import { DuckDBDataChunk, DuckDBTypeId, type DuckDBListType, type DuckDBType } from "@duckdb/node-api";

/**
 * Column-oriented rows: one array per column name, every array as long as the batch.
 * Numeric columns may be typed arrays (Float64Array for DOUBLE, Int32Array for INTEGER, ...);
 * `null`/`undefined` entries of plain arrays are SQL NULL.
 */
export type Columns = Record<string, ArrayLike<unknown>>;

export class UnsupportedColumnTypeError extends Error {}

/** DuckDB's string_t is 16 bytes; strings of at most 12 UTF-8 bytes are stored inline in it. */
const STRING_BYTES = 16;
const INLINE_BYTES = 12;
const encoder = new TextEncoder();

/**
 * Fills a data chunk's vectors straight from column arrays: fixed-width types are written into
 * one typed buffer per column and copied in once, short strings are laid out inline in DuckDB's
 * 16-byte string format, and only strings longer than 12 bytes cross into native code one by one.
 * Types: VARCHAR/JSON, DOUBLE, FLOAT, INTEGER, SMALLINT, TINYINT, BIGINT, BOOLEAN, TIMESTAMP and
 * lists of these; others (structs, maps, ...) are refused.
 *
 * `fill(chunk, columns, start, n)` writes rows `start .. start+n` of every column; a column that is
 * `undefined` is all NULL, except where `defaults` gives a value for that column index.
 */
export class ColumnWriter {
  constructor(
    private readonly types: readonly DuckDBType[],
    private readonly defaults: ReadonlyMap<number, unknown> = new Map(),
    private readonly names: readonly string[] = types.map((_, c) => `column ${c + 1}`),
  ) {}

  fill(chunk: DuckDBDataChunk, columns: readonly (ArrayLike<unknown> | undefined)[], start: number, n: number): void {
    chunk.rowCount = n;
    for (let c = 0; c < this.types.length; c++) {
      const type = this.types[c]!;
      const col = columns[c];
      const dflt = this.defaults.get(c);
      const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
      if (writeVector(vector, type, col, start, n, dflt)) continue;
      if (col === undefined && dflt === undefined) {
        chunk.setColumnValues(c, new Array(n).fill(null)); // a left-out column of another type: NULLs
      } else {
        throw new UnsupportedColumnTypeError(
          `${this.names[c]} has type ${type.toString()}, which appends do not write; insert it with SQL (exec) instead`,
        );
      }
    }
  }
}

/** Writes `n` values into a vector; false when the type has no fast path. */
function writeVector(
  vector: duckdb.Vector,
  type: DuckDBType,
  col: ArrayLike<unknown> | undefined,
  start: number,
  n: number,
  dflt: unknown,
): boolean {
  const validity = new Validity(n);
  if (
    !FAST_TYPES.has(type.typeId) ||
    (type.typeId === DuckDBTypeId.LIST && !FAST_TYPES.has((type as DuckDBListType).valueType.typeId))
  ) {
    return false;
  }
  if (col === undefined && dflt === undefined) {
    // A column left out entirely: all NULL, data left as it is.
    validity.setAllNull();
    validity.flush(vector);
    return true;
  }
  switch (type.typeId) {
    case DuckDBTypeId.DOUBLE:
      return fixed(vector, validity, new Float64Array(n), col, start, n, dflt, Number);
    case DuckDBTypeId.FLOAT:
      return fixed(vector, validity, new Float32Array(n), col, start, n, dflt, Number);
    case DuckDBTypeId.INTEGER:
      return fixed(vector, validity, new Int32Array(n), col, start, n, dflt, Math.trunc);
    case DuckDBTypeId.SMALLINT:
      return fixed(vector, validity, new Int16Array(n), col, start, n, dflt, Math.trunc);
    case DuckDBTypeId.TINYINT:
      return fixed(vector, validity, new Int8Array(n), col, start, n, dflt, Math.trunc);
    case DuckDBTypeId.BOOLEAN:
      return fixed(vector, validity, new Uint8Array(n), col, start, n, dflt, (v) => (v ? 1 : 0));
    case DuckDBTypeId.BIGINT:
      return fixed(vector, validity, new BigInt64Array(n), col, start, n, dflt, toBigInt);
    case DuckDBTypeId.TIMESTAMP:
      return fixed(vector, validity, new BigInt64Array(n), col, start, n, dflt, toMicros);
    case DuckDBTypeId.VARCHAR:
      writeStrings(vector, validity, col, start, n, dflt);
      return true;
    case DuckDBTypeId.LIST:
      return writeList(vector, validity, (type as DuckDBListType).valueType, col, start, n, dflt);
    default:
      return false;
  }
}

const FAST_TYPES = new Set([
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.VARCHAR,
  DuckDBTypeId.LIST,
]);

type Fixed = Float64Array | Float32Array | Int32Array | Int16Array | Int8Array | Uint8Array | BigInt64Array;

function fixed<T extends Fixed>(
  vector: duckdb.Vector,
  validity: Validity,
  out: T,
  col: ArrayLike<unknown> | undefined,
  start: number,
  n: number,
  dflt: unknown,
  conv: (v: never) => T[number],
): true {
  const c = conv as (v: unknown) => T[number];
  const fill = dflt === undefined ? undefined : c(dflt);
  if (col && ArrayBuffer.isView(col) && col.constructor === out.constructor) {
    // A typed array of the column's own type: copied as is (it has no NULLs).
    (out as { set(a: ArrayLike<unknown>): void }).set((col as unknown as T).subarray(start, start + n));
  } else {
    for (let r = 0; r < n; r++) {
      const v = col?.[start + r];
      if (v === undefined || v === null) {
        if (fill === undefined) validity.setNull(r);
        else out[r] = fill;
      } else {
        out[r] = c(v);
      }
    }
  }
  duckdb.copy_data_to_vector(vector, 0, out.buffer as ArrayBuffer, out.byteOffset, out.byteLength);
  validity.flush(vector);
  return true;
}

function toBigInt(v: unknown): bigint {
  return typeof v === "bigint" ? v : BigInt(Math.trunc(Number(v)));
}

/** Date, epoch milliseconds or an ISO string → microseconds since the epoch. */
function toMicros(v: unknown): bigint {
  if (typeof v === "bigint") return v;
  const ms = v instanceof Date ? v.getTime() : typeof v === "number" ? v : Date.parse(String(v));
  return BigInt(Math.round(ms)) * 1000n;
}

/** Non-strings (JSON columns take objects) are serialised. */
function asString(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * Strings: each row's 16-byte string_t is [uint32 length][12 inline bytes] for short strings;
 * those are laid out here and copied in one go, longer ones are assigned afterwards.
 */
function writeStrings(
  vector: duckdb.Vector,
  validity: Validity,
  col: ArrayLike<unknown> | undefined,
  start: number,
  n: number,
  dflt: unknown,
): void {
  const bytes = scratch(n * STRING_BYTES);
  const words = new Uint32Array(bytes.buffer, 0, n * 4);
  const long: number[] = [];
  const longValues: string[] = [];
  const fill = dflt === undefined ? undefined : asString(dflt);
  // Repeated short strings (run ids, statuses, families) are laid out once and copied after;
  // the cache turns itself off on columns where it rarely hits (node ids).
  let seen: Map<string, number> | null = new Map();
  let hits = 0;
  for (let r = 0; r < n; r++) {
    const raw = col?.[start + r];
    const s = raw === undefined || raw === null ? fill : typeof raw === "string" ? raw : asString(raw);
    if (s === undefined) {
      validity.setNull(r);
      continue;
    }
    if (seen) {
      const first = seen.get(s);
      if (first !== undefined) {
        hits++;
        const a = first * 4;
        const b = r * 4;
        words[b] = words[a]!;
        words[b + 1] = words[a + 1]!;
        words[b + 2] = words[a + 2]!;
        words[b + 3] = words[a + 3]!;
        continue;
      }
      if (r === 255 && hits < 128) seen = null;
    }
    if (inline(s, bytes, r * STRING_BYTES)) seen?.set(s, r);
    else {
      long.push(r);
      longValues.push(s);
    }
  }
  duckdb.copy_data_to_vector(vector, 0, bytes.buffer, 0, n * STRING_BYTES);
  for (let i = 0; i < long.length; i++) duckdb.vector_assign_string_element(vector, long[i]!, longValues[i]!);
  validity.flush(vector);
}

/** Writes `s` inline at `at` when its UTF-8 form fits in 12 bytes; false when it does not. */
function inline(s: string, bytes: Uint8Array, at: number): boolean {
  if (s.length > INLINE_BYTES) return false;
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code > 0x7f) {
      ascii = false;
      break;
    }
    bytes[at + 4 + i] = code;
  }
  if (ascii) {
    bytes[at] = s.length; // the uint32 length, little-endian; it is at most 12
    return true;
  }
  const utf8 = encoder.encode(s);
  if (utf8.length > INLINE_BYTES) {
    bytes.fill(0, at + 4, at + 4 + s.length);
    return false;
  }
  bytes.fill(0, at + 4, at + STRING_BYTES);
  bytes.set(utf8, at + 4);
  bytes[at] = utf8.length;
  return true;
}

let scratchBuffer = new ArrayBuffer(64 * 1024);
/**
 * A zeroed scratch area for one string vector (strings are the only nested write that outlives
 * no other: list children are written before their parent's entries, which use their own array).
 */
function scratch(byteCount: number): Uint8Array {
  if (scratchBuffer.byteLength < byteCount) scratchBuffer = new ArrayBuffer(byteCount);
  const out = new Uint8Array(scratchBuffer, 0, byteCount);
  out.fill(0);
  return out;
}

/**
 * Lists: the entry buffer holds (offset, length) as two uint64 per row into one child vector
 * holding every row's elements back to back; the child is written by `writeVector` again.
 */
function writeList(
  vector: duckdb.Vector,
  validity: Validity,
  child: DuckDBType,
  col: ArrayLike<unknown> | undefined,
  start: number,
  n: number,
  dflt: unknown,
): boolean {
  const entries = new Uint32Array(n * 4); // little-endian uint64 pairs; offsets and lengths stay below 2^32
  const items: unknown[] = [];
  for (let r = 0; r < n; r++) {
    const raw = col?.[start + r];
    const list = (raw === undefined || raw === null ? dflt : raw) as ArrayLike<unknown> | undefined | null;
    if (list === undefined || list === null) {
      validity.setNull(r);
      entries[r * 4] = items.length;
      continue;
    }
    entries[r * 4] = items.length;
    entries[r * 4 + 2] = list.length;
    for (let i = 0; i < list.length; i++) items.push(list[i]);
  }
  duckdb.list_vector_reserve(vector, items.length);
  duckdb.list_vector_set_size(vector, items.length);
  const childVector = duckdb.list_vector_get_child(vector);
  if (items.length > 0 && !writeVector(childVector, child, items, 0, items.length, undefined)) return false;
  duckdb.copy_data_to_vector(vector, 0, entries.buffer, 0, entries.byteLength);
  validity.flush(vector);
  return true;
}

/** A validity bitmask (bit set = valid), copied in only when some row is NULL. */
class Validity {
  private bits: Uint8Array | null = null;
  constructor(private readonly n: number) {}

  setAllNull(): void {
    this.bits = new Uint8Array(Math.ceil(this.n / 64) * 8);
  }

  setNull(row: number): void {
    if (!this.bits) this.bits = new Uint8Array(Math.ceil(this.n / 64) * 8).fill(0xff);
    this.bits[row >> 3]! &= ~(1 << (row & 7));
  }

  flush(vector: duckdb.Vector): void {
    if (!this.bits) return;
    duckdb.vector_ensure_validity_writable(vector);
    duckdb.copy_data_to_vector_validity(vector, 0, this.bits.buffer, 0, this.bits.byteLength);
  }
}
