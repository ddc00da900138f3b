// The column names of a raw table, read on the host (a header is data, never run), so that a spec that names no id
// column gets a generated one that cannot take over a column of the table.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { extname } from "node:path";
import { csvParseRows } from "d3-dsv";
import { TaskSpecError } from "./errors.js";

/** Bytes of a CSV read for its header row. */
const HEADER_BYTES = 1 << 20;

/** The name of a generated id column that no column of the table has: `id`, else `row_id`, `row_id_3`, … */
export function freshIdColumn(names: Iterable<string>): string {
  const taken = new Set(names);
  let idColumn = "id";
  for (let i = 2; taken.has(idColumn); i++) idColumn = i === 2 ? "row_id" : `row_id_${i}`;
  return idColumn;
}

/**
 * The columns of a raw table as prepare.py reads it: a CSV's header row; the keys of a JSON array's records or of
 * a JSONL file's records (in first-seen order). A file that cannot be read as one throws TaskSpecError.
 */
export function tableColumns(path: string): string[] {
  const ext = extname(path).toLowerCase();
  const bad = (why: string): never => {
    throw new TaskSpecError(
      `raw table ${path}: ${why}. Fix: pass a CSV with a header row, a JSON array of records or JSONL.`,
      path,
    );
  };
  if (ext === ".csv") {
    const fd = openSync(path, "r");
    const buf = Buffer.alloc(HEADER_BYTES);
    let n: number;
    try {
      n = readSync(fd, buf, 0, HEADER_BYTES, 0);
    } finally {
      closeSync(fd);
    }
    const text = buf
      .subarray(0, n)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
    if (n === HEADER_BYTES && !/[\r\n]/.test(text)) bad(`a header row longer than ${HEADER_BYTES} bytes`);
    const header = csvParseRows(text)[0];
    return header && header.some((h) => h !== "") ? header : bad("no header row");
  }
  const text = readFileSync(path, "utf8");
  let records: unknown[];
  try {
    records =
      ext === ".jsonl"
        ? text
            .split("\n")
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l) as unknown)
        : (JSON.parse(text) as unknown[]);
  } catch (e) {
    return bad(`not valid JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(records)) return bad("not an array of records");
  const names = new Set<string>();
  for (const r of records)
    if (r && typeof r === "object" && !Array.isArray(r)) for (const k of Object.keys(r)) names.add(k);
  return names.size ? [...names] : bad("no records with fields");
}
