// The submission column cap counts a header as pandas' C parser does (issue 25, break 5): hand-computed
// cases, then agreement with the real pandas on tricky and random headers, so the rule cannot drift.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRng } from "../util/rng.js";
import { csvHeaderColumns, PANDAS_CHUNK_BYTES } from "./csv-header-columns.js";

const cols = (text: string | Buffer, atEof = true) => csvHeaderColumns(Buffer.from(text), atEof);
const C = PANDAS_CHUNK_BYTES;

// [header text (the whole file), columns]
const CASES: [string, number][] = [
  ["id,label\n1,0\n", 2],
  ["a", 1],
  ["a,b,", 3], // a trailing comma is an empty third field
  [",,", 3],
  ['id",c,c,c', 4], // the header: a quote inside an unquoted field is literal
  ['a,b"c,d', 3],
  [' "a,b",c', 3], // a quote after a space is not at the field's start
  ['a,"b,c",d', 3],
  ['"a""b,c",d', 2], // "" is an escaped quote, the comma stays inside
  ['"a"",b"', 1],
  ['"a"x,y', 2], // after the closing quote, x joins the same field
  ['"a" ,b', 2],
  ['a,"b"c"d,e",f', 4], // "b" then c"d (literal) | e" | f
  ['"a\nb",c\n1,2\n', 2], // a newline inside quotes continues the record
  ['"a\r\nb,c"\n', 1],
  ["a,b\r\nc,d,e\r\n", 2],
  ["a,b\rc,d,e", 2], // a lone \r ends the record
  ["\n\na,b,c", 3], // blank lines before the header are skipped
  ["  \t\r\na,b,c", 3], // so are lines of spaces and tabs
  ["\ufeff\"a,b\",c", 2], // a leading BOM is dropped, so the quote starts the field
  ['""', 1],
  ['"",""', 2],
  ["", 0],
  ["\n \n", 0],
  ["\r,a,b", 2], // the comma right after a lone-\r blank line goes with it
  ["\r\n,a,b", 3], // not after \r\n
  ["\r  a,b,c", 1], // a blank-led line after a lone \r is re-read from the \r: header ""
  ["\n  a,b,c", 3], // re-read from after the \n: its own three fields
  ["\r\n\t,x", 2],
];

// [what, bytes, columns]: where pandas' 256 KiB read chunks fall matters.
const CHUNK_CASES: [string, Buffer, number][] = [
  // A BOM at the second chunk's start inside the first line is dropped, so the quote opens a field
  // and the newline inside it does not end the header.
  ["BOM at byte 262,144 in the header", Buffer.concat([Buffer.from("a".repeat(C - 1) + ","), Buffer.from('\ufeff"x\ny"' + ",z".repeat(50) + "\n")]), 52],
  ["BOM one byte later", Buffer.from("a".repeat(C) + ',\ufeff"x\ny"' + ",z".repeat(50) + "\n"), 2],
  ["BOM at 262,144 after a blank line", Buffer.from("\n" + "a".repeat(C - 2) + ',\ufeff"q,q",z\n'), 4],
  // The re-read of a blank-led line stops at the chunk's start.
  ["blank-led line across the chunk start", Buffer.from("\r".repeat(C - 3) + "      x" + ",c".repeat(50) + "\n"), 51],
  ["the same within one chunk", Buffer.from("\r".repeat(10) + "      x" + ",c".repeat(50) + "\n"), 1],
];

describe("csvHeaderColumns", () => {
  it.each(CASES)("%j has %i columns", (text, columns) => {
    expect(cols(text)).toBe(columns);
  });

  it.each(CHUNK_CASES)("%s: %#", (_, bytes, columns) => {
    expect(csvHeaderColumns(bytes, true)).toBe(columns);
  });

  it("is null while the header record has not ended within a truncated read", () => {
    expect(cols("a,b,c", false)).toBeNull();
    expect(cols('"a\nb,c', false)).toBeNull(); // still inside the quoted field
    expect(cols("   ", false)).toBeNull();
    expect(cols("a,b\n", false)).toBe(2);
    expect(cols('"a\nb",c\n', false)).toBe(2);
  });

  it("counts the issue's 100,001 columns, which the old quote-toggling count saw as 1", () => {
    expect(cols('id"' + ",c".repeat(100_000) + "\n")).toBe(100_001);
  });
});

/** Random headers over the characters the rule cares about (seeded: a failure reproduces). */
function randomHeaders(count: number, seed: number): string[] {
  const rng = createRng(seed);
  const alphabet = ["a", "b", ",", ",", '"', '"', " ", "\t", "\n", "\r", "\r\n", "x y"];
  return Array.from({ length: count }, () => {
    const parts = Array.from({ length: rng.int(24) }, () => alphabet[rng.int(alphabet.length)]!);
    return (rng.int(8) === 0 ? "\ufeff" : "") + parts.join("");
  });
}

describe("csvHeaderColumns agrees with pandas.read_csv", () => {
  it("on the hand-computed cases and 1,000 random headers, each written as a file and read by path", () => {
    const dir = mkdtempSync(join(tmpdir(), "csv-cols-"));
    try {
      const headers = [
        ...CASES.map(([t]) => Buffer.from(t)),
        ...CHUNK_CASES.map(([, b]) => b),
        ...randomHeaders(1000, 25).map((t) => Buffer.from(t)),
      ];
      headers.forEach((h, i) => writeFileSync(join(dir, `${i}.csv`), h));
      // As the metric harness reads a submission: pd.read_csv(path) with the defaults.
      const py = `
import json, sys, warnings, pandas as pd
warnings.simplefilter("ignore")  # mixed-type columns of the random rows
out = []
for i in range(int(sys.argv[2])):
    try:
        out.append(len(pd.read_csv(f"{sys.argv[1]}/{i}.csv").columns))
    except pd.errors.EmptyDataError:
        out.append(0)
    except Exception as e:
        out.append(type(e).__name__)
print(json.dumps(out))
`;
      const r = spawnSync("/usr/bin/python3", ["-c", py, dir, String(headers.length)], { encoding: "utf8" });
      expect([r.status, r.stderr]).toEqual([0, ""]);
      const pandas = JSON.parse(r.stdout) as (number | string)[];
      const mismatches = headers
        .map((h, i) => ({ header: h.toString().slice(0, 80), pandas: pandas[i], ours: csvHeaderColumns(h, true) }))
        .filter((m) => typeof m.pandas === "number" && m.pandas !== m.ours);
      expect(mismatches).toEqual([]);
      // pandas refuses some (EOF inside a quoted field; data rows wider than the header): enough must parse.
      expect(pandas.filter((p) => typeof p === "number").length).toBeGreaterThan(headers.length / 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
