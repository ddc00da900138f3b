import { describe, expect, it, vi } from "vitest";
import { jsonText } from "./run-cli.js";
import { printRows, TABLE_ROWS } from "./workspace-query-limits.js";

/** What printRows writes to stdout. */
function printed(json: boolean, rows: Record<string, unknown>[]): string {
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    printRows(json, rows);
    return write.mock.calls.map((c) => String(c[0])).join("");
  } finally {
    write.mockRestore();
  }
}

const row = (i: number) => ({ i, s: `x\n"${i}"\u202e`, l: [i, { k: null }], d: new Date(0) });

describe("workspace query prints its rows without one string of them all", () => {
  it.each([0, 1, 999, 1000, 1001, 2500])("--json of %i rows is the JSON array jsonText gives", (n) => {
    const rows = Array.from({ length: n }, (_, i) => row(i));
    expect(printed(true, rows)).toBe(`${jsonText(rows, 2)}\n`);
  });

  it(`the table shows the first ${TABLE_ROWS.toLocaleString("en-US")} rows and says how many were left out`, () => {
    const text = printed(false, Array.from({ length: TABLE_ROWS + 5 }, (_, i) => ({ i })));
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(2 + TABLE_ROWS + 1);
    expect(lines.at(-2)).toBe(String(TABLE_ROWS - 1));
    expect(lines.at(-1)).toBe(
      "(10,000 of 10,005 rows shown: --json prints them all; add a LIMIT, or write them to Parquet with openmle " +
        "workspace export)",
    );
    expect(printed(false, [])).toBe("(no rows)\n");
  });
});
