import { z } from "zod";
import { combine32, hash32, makeSketch, type Sketch } from "./content-sketch.js";

/**
 * A table's name-free content profile (study identity, issue 60), pure: computed once per exported candidate from
 * its table.csv (header + rows of strings) and stored beside it as content.json; studyEvidence compares two.
 *
 * 1. Cells are normalised: trimmed, lower-cased, runs of blanks made one; the NA forms ("", na, nan, null, none)
 *    one token; true/false 1/0; a number is rewritten with 6 significant digits ("1.0", "1e0" and "1.0000001"
 *    are all "1"). A column is integer or number when every cell that is not NA is a number, text when its strings
 *    average more than `textChars` characters, else string.
 * 2. Row fingerprints: per row, the hash of its sorted cell hashes (order-free, so column order and names do not
 *    matter), over all columns but a row index, and again over the number columns only (when there are >= 2): a
 *    row sketch each, a multiset capped at `rowSample` hashes. Copies, subsets and reorderings share them; a row
 *    index (ContentColumn.index) is left out, as one package numbers rows and another does not.
 * 3. Value sets: for each distinctive number column (>= `minDistinct` distinct values, not evenly spaced: a row
 *    index 1..n, years, ids 1..k, small codes and 0/1 flags never are) a sketch of its distinct values
 *    (`valueSample`), for at most `maxValueColumns` columns in table order.
 * 4. Keys: string columns (not text) and integer columns (not a row index) with >= `minDistinct` distinct values,
 *    strings first, then id-like integers (evenly spaced, or one per row), then other integers (counts), each by
 *    distinct values, at most `maxKeyColumns`. Each keeps a join sample: every row of the entities whose key hash
 *    is below a threshold (the same entities in every table: the sample is consistent), entities taken in hash
 *    order until there are >= `joinEntities` of them and >= `joinCells` cells (rows × columns), never past
 *    `maxJoinCells` cells; over the first `maxJoinColumns` columns that are not text.
 * 5. Cells: a small table (rows × columns <= `matrixCells`) keeps every cell hash, column by column, so that rows
 *    can be compared over the columns two tables share (study-projection.ts).
 */
export const ContentProfileConfig = z
  .object({
    /** Rows read of table.csv (the export caps tables at 200,000 rows already). */
    maxRows: z.number().int().positive().default(200_000),
    /** Bytes read of table.csv (64 MiB); a longer file is profiled from its first rows, marked truncated. */
    maxBytes: z
      .number()
      .int()
      .positive()
      .default(64 * 1024 * 1024),
    /** Row hashes kept per row sketch (a larger table keeps a consistent sample). */
    rowSample: z.number().int().positive().default(20_000),
    /** Distinct value hashes kept per value-set column. */
    valueSample: z.number().int().positive().default(512),
    /** Distinct values a column needs to be a value set or a key. */
    minDistinct: z.number().int().positive().default(20),
    /** Value-set columns kept, in table order. */
    maxValueColumns: z.number().int().positive().default(32),
    /** Key columns kept. */
    maxKeyColumns: z.number().int().positive().default(2),
    /** Entities a join sample takes at least (within maxJoinCells): a panel has many rows per entity. */
    joinEntities: z.number().int().positive().default(100),
    /** Cells (rows × columns) a join sample takes at least (within maxJoinCells). */
    joinCells: z.number().int().positive().default(12_000),
    /** Cells a join sample never exceeds. */
    maxJoinCells: z.number().int().positive().default(40_000),
    /** Columns of a join sample (the first ones that are not text). */
    maxJoinColumns: z.number().int().positive().default(80),
    /** Cells of a table small enough to keep every cell hash (rule 5). */
    matrixCells: z.number().int().positive().default(20_000),
    /** A string column averaging more characters than this is text (never a key). */
    textChars: z.number().int().positive().default(60),
  })
  .strict();
export type ContentProfileConfig = z.input<typeof ContentProfileConfig>;

/** Bump when a rule above changes what a profile holds: cached content.json files are then recomputed. */
export const CONTENT_PROFILE_VERSION = 1;

export type ContentKind = "integer" | "number" | "string" | "text";

export interface ContentColumn {
  readonly name: string;
  readonly kind: ContentKind;
  readonly distinct: number;
  readonly missing: number;
  /** Distinct numbers step regularly (isEvenlySpaced: a row index, years, ids 1..k, decimal time). */
  readonly evenlySpaced: boolean;
  /** An integer column holding each of 1..n (or 0..n-1) once: the row's position. */
  readonly index: boolean;
  /** Numbers, or ISO dates (strings that sort in time): a key in this column has an order. */
  readonly ordered: boolean;
}

/** A cell of a join sample: a number, a normalised string, or null for NA. */
export type JoinCell = number | string | null;

export interface KeySample {
  /** The key column (an index into columns). */
  readonly column: number;
  /** Entities (normalised key values) kept: those whose hash32(key, KEY_SEED) is below t. */
  readonly t: number;
  /** The columns of each row (the key among them). */
  readonly columns: readonly number[];
  readonly rows: readonly (readonly JoinCell[])[];
}

export interface ContentProfile {
  readonly version: number;
  readonly nRows: number;
  /** Stopped at maxRows or maxBytes: the profile is of the first rows only. */
  readonly truncated: boolean;
  readonly columns: readonly ContentColumn[];
  /** Row fingerprints over all columns. */
  readonly rows: Sketch;
  /** Row fingerprints over the number columns; null with fewer than two. */
  readonly numericRows: Sketch | null;
  readonly values: readonly { readonly column: number; readonly sketch: Sketch }[];
  readonly keys: readonly KeySample[];
  /** Every cell hash, column-major (column c's rows at c·nRows ..), uint32 little-endian in base64; null if large. */
  readonly cells: string | null;
}

export const NA = "\u0000na";
export const KEY_SEED = 0x6b6579;
const NA_FORMS = new Set(["", "na", "nan", "null", "none", "<na>"]);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}(-\d{2})?([ t]\d{2}:\d{2}(:\d{2}(\.\d+)?)?z?)?$/;

/** One cell, normalised (rule 1): its text and, for a number, its value. */
export function normaliseCell(raw: string): { readonly text: string; readonly num: number | null } {
  const s = raw.trim().toLowerCase().replace(/\s+/g, " ");
  if (NA_FORMS.has(s)) return { text: NA, num: null };
  if (s === "true" || s === "false") return { text: s === "true" ? "1" : "0", num: s === "true" ? 1 : 0 };
  if (!NUMBER.test(s)) return { text: s, num: null };
  const v = Number(Number(s).toPrecision(6));
  const num = v === 0 ? 0 : v;
  return { text: String(num), num };
}

/**
 * Evenly spaced: the sorted distinct numbers step regularly, at least 80% of their gaps at most 1.5 times the least
 * gap d (a row index, ids 1..k, years, decimal time rounded to 6 digits; fewer than 3 values count as spaced).
 */
export function isEvenlySpaced(sortedDistinct: readonly number[]): boolean {
  const n = sortedDistinct.length;
  if (n < 3) return true;
  const gaps = sortedDistinct.slice(1).map((x, i) => x - sortedDistinct[i]!);
  const d = gaps.reduce((m, g) => Math.min(m, g), Infinity);
  return gaps.filter((g) => g <= 1.5 * d).length >= 0.8 * gaps.length;
}

/** The content profile of a parsed table (rules above). Rows shorter than the header read as NA. */
export function contentProfile(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  config: ContentProfileConfig = {},
  truncated = false,
): ContentProfile {
  const cfg = ContentProfileConfig.parse(config);
  const nCol = header.length;
  const nRows = rows.length;
  // 1. Normalise each column once: texts, numbers, cell hashes.
  const text: string[][] = [];
  const nums: (number | null)[][] = [];
  const cellHash: Uint32Array[] = [];
  const columns: ContentColumn[] = [];
  for (let c = 0; c < nCol; c++) {
    const t = new Array<string>(nRows);
    const v = new Array<number | null>(nRows);
    const h = new Uint32Array(nRows);
    let [missing, numeric, integer, chars, strings, dates] = [0, 0, 0, 0, 0, 0];
    // Each distinct raw cell is normalised and hashed once.
    const seen = new Map<string, { text: string; num: number | null; hash: number; date: boolean }>();
    for (let r = 0; r < nRows; r++) {
      const raw = rows[r]![c] ?? "";
      let cell = seen.get(raw);
      if (!cell) {
        const norm = normaliseCell(raw);
        cell = { ...norm, hash: hash32(norm.text), date: ISO_DATE.test(norm.text) };
        seen.set(raw, cell);
      }
      t[r] = cell.text;
      v[r] = cell.num;
      h[r] = cell.hash;
      if (cell.text === NA) missing++;
      else if (cell.num !== null) {
        numeric++;
        if (Number.isInteger(cell.num)) integer++;
      } else {
        strings++;
        chars += cell.text.length;
        if (cell.date) dates++;
      }
    }
    const distinctText = new Set([...seen.values()].map((x) => x.text));
    distinctText.delete(NA);
    const isNum = strings === 0 && numeric > 0;
    const kind: ContentKind = isNum
      ? integer === numeric
        ? "integer"
        : "number"
      : strings && chars / strings > cfg.textChars
        ? "text"
        : "string";
    const sortedNums = isNum ? [...new Set(v.filter((x): x is number => x !== null))].sort((a, b) => a - b) : [];
    const evenlySpaced = isNum && isEvenlySpaced(sortedNums);
    const index =
      kind === "integer" &&
      missing === 0 &&
      sortedNums.length === nRows &&
      (sortedNums[0] === 0 || sortedNums[0] === 1) &&
      sortedNums[nRows - 1]! - sortedNums[0]! === nRows - 1;
    text.push(t);
    nums.push(v);
    cellHash.push(h);
    const ordered = isNum || (strings > 0 && dates === strings);
    columns.push({ name: header[c] ?? "", kind, distinct: distinctText.size, missing, evenlySpaced, index, ordered });
  }
  // 2. Row fingerprints.
  const all = columns.map((_, c) => c);
  const numericCols = all.filter((c) => columns[c]!.kind === "integer" || columns[c]!.kind === "number");
  const rowHashes = (cols: readonly number[]) => {
    const [row, out] = [new Uint32Array(cols.length), new Uint32Array(nRows)];
    for (let r = 0; r < nRows; r++) {
      for (let k = 0; k < cols.length; k++) row[k] = cellHash[cols[k]!]![r]!;
      out[r] = combine32(row.sort());
    }
    return out;
  };
  const content = all.filter((c) => !columns[c]!.index);
  const numericContent = numericCols.filter((c) => !columns[c]!.index);
  const rowSketch = makeSketch(rowHashes(content), cfg.rowSample);
  const numericRows = numericContent.length >= 2 ? makeSketch(rowHashes(numericContent), cfg.rowSample) : null;
  // 3. Value sets of the distinctive number columns.
  const values = numericCols
    .filter((c) => columns[c]!.distinct >= cfg.minDistinct && !columns[c]!.evenlySpaced)
    .slice(0, cfg.maxValueColumns)
    .map((c) => ({ column: c, sketch: makeSketch([...distinctHashes(cellHash[c]!, text[c]!)], cfg.valueSample) }));
  // 4. Keys and their join samples.
  const keyCols = columns
    .map((col, c) => ({ col, c }))
    .filter(
      ({ col }) => col.distinct >= cfg.minDistinct && (col.kind === "string" || (col.kind === "integer" && !col.index)),
    )
    .sort((x, y) => keyRank(x.col, nRows) - keyRank(y.col, nRows) || y.col.distinct - x.col.distinct || x.c - y.c)
    .slice(0, cfg.maxKeyColumns)
    .map(({ c }) => c);
  const joinCols = all.filter((c) => columns[c]!.kind !== "text").slice(0, cfg.maxJoinColumns);
  const keys = keyCols.map((k) => keySample(k, text[k]!, joinCols, text, nums, cfg));
  // 5. Cells of a small table.
  let cells: string | null = null;
  if (nRows * nCol <= cfg.matrixCells) {
    const buf = Buffer.alloc(nRows * nCol * 4);
    cellHash.forEach((h, c) => h.forEach((x, r) => buf.writeUInt32LE(x, (c * nRows + r) * 4)));
    cells = buf.toString("base64");
  }
  return {
    version: CONTENT_PROFILE_VERSION,
    nRows,
    truncated,
    columns,
    rows: rowSketch,
    numericRows,
    values,
    keys,
    cells,
  };
}

/** 0 strings, 1 id-like integers (evenly spaced, or one per row), 2 other integers. */
function keyRank(col: ContentColumn, nRows: number): number {
  if (col.kind === "string") return 0;
  return col.evenlySpaced || col.distinct === nRows - col.missing ? 1 : 2;
}

function distinctHashes(hashes: Uint32Array, texts: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (let r = 0; r < hashes.length; r++) if (texts[r] !== NA) out.add(hashes[r]!);
  return out;
}

/** The join sample of key column k: whole entities in hash order (the budget of rule 4). */
function keySample(
  k: number,
  keyText: readonly string[],
  joinCols: readonly number[],
  text: readonly (readonly string[])[],
  nums: readonly (readonly (number | null)[])[],
  cfg: z.output<typeof ContentProfileConfig>,
): KeySample {
  const columns = joinCols.includes(k) ? joinCols : [k, ...joinCols];
  const byEntity = new Map<string, number[]>();
  keyText.forEach((key, r) => {
    if (key === NA) return;
    const list = byEntity.get(key);
    if (list) list.push(r);
    else byEntity.set(key, [r]);
  });
  const entities = [...byEntity.keys()].map((key) => ({ key, h: hash32(key, KEY_SEED) })).sort((a, b) => a.h - b.h);
  const w = columns.length;
  let [kept, t] = [0, 2 ** 32];
  const rows: JoinCell[][] = [];
  for (let i = 0; i < entities.length; i++) {
    const rs = byEntity.get(entities[i]!.key)!;
    const enough = i >= cfg.joinEntities && kept * w >= cfg.joinCells;
    if (enough || (kept + rs.length) * w > cfg.maxJoinCells) {
      t = entities[i]!.h;
      // Entities sharing the threshold hash are dropped with it (kept hashes are strictly below t).
      while (i > 0 && entities[i - 1]!.h === t) i--;
      rows.length = entities.slice(0, i).reduce((n, e) => n + byEntity.get(e.key)!.length, 0);
      break;
    }
    kept += rs.length;
    for (const r of rs) rows.push(columns.map((c) => (text[c]![r] === NA ? null : (nums[c]![r] ?? text[c]![r]!))));
  }
  return { column: k, t, columns, rows };
}
