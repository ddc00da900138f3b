import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openWorkspace, QueryLimitError, type QueryLimits } from "./index.js";
import { approxBytes } from "./query-limits.js";

// Issue 59.7: `openmle workspace query` had no time or memory limit. Each query below ran on without one
// (minutes, or gigabytes); under its limit it stops in about a second.
let dir: string;
beforeAll(async () => {
  dir = join(mkdtempSync(join(tmpdir(), "openmle-qlimit-")), "ws");
  const w = await openWorkspace(dir);
  await w.append("runs", [{ run_id: "r1", task_id: "t", seed: 1 }]);
  w.close();
});

/** `sql` on a confined read-only handle with `limits`: its rows, or the error, and how long it took. */
async function run(sql: string, limits: QueryLimits) {
  const w = await openWorkspace(dir, { readOnly: true, confined: true, limits });
  const t = performance.now();
  try {
    const out = await w.query(sql).catch((e: unknown) => e);
    // The handle still answers after a stopped statement.
    expect(await w.query("SELECT run_id FROM runs")).toEqual([{ run_id: "r1" }]);
    return { out, s: (performance.now() - t) / 1000 };
  } finally {
    w.close();
  }
}

// [case, SQL, limits, the limit hit, message]
const STOPPED: [string, string, QueryLimits, string, RegExp][] = [
  [
    "an endless cross join (10^11 rows) at its time limit",
    "SELECT sum(a.range * b.range) FROM range(100000) a, range(1000000) b",
    { timeoutMs: 500, memoryMb: 256 },
    "time",
    /the query ran past its time limit of 0\.5 s and was interrupted\. Narrow it .* larger limits\.timeoutMs\.$/,
  ],
  [
    "50 million distinct strings at a 64 MiB memory limit (DuckDB's memory_limit; no spilling)",
    "SELECT count(DISTINCT 'x' || i::VARCHAR) FROM range(50000000) t(i)",
    { timeoutMs: 60_000, memoryMb: 64 },
    "memory",
    /needed more than its memory limit of 64 MiB and was stopped \(Out of Memory Error: .*\)\. .*limits\.memoryMb\.$/,
  ],
  [
    "a sort of 30 million rows at 64 MiB",
    "SELECT i FROM range(30000000) t(i) ORDER BY -i",
    { memoryMb: 64 },
    "memory",
    /memory limit of 64 MiB/,
  ],
  [
    "a million 1,000-character rows returned (1 GB in JS, outside DuckDB's limit) at 64 MiB",
    "SELECT i, repeat('x', 1000) AS s FROM range(1000000) t(i)",
    { memoryMb: 64 },
    "result",
    /returned more than its memory limit of 64 MiB of rows \([\d,]+ rows read so far\)/,
  ],
];

describe("a read-only handle's limits stop the statement and say which", () => {
  it.each(STOPPED)("%s", async (_name, sql, limits, limit, message) => {
    const { out, s } = await run(sql, limits);
    expect(out).toBeInstanceOf(QueryLimitError);
    expect((out as QueryLimitError).limit).toBe(limit);
    expect((out as Error).message).toMatch(message);
    expect((out as Error).message).not.toMatch(/\n/);
    expect(s).toBeLessThan(10);
  });

  it("leaves queries under the limits as they were, and writes no spill folder beside the database", async () => {
    const { out } = await run("SELECT count(*) AS n FROM range(1000000)", { timeoutMs: 10_000, memoryMb: 64 });
    expect(out).toEqual([{ n: 1000000 }]);
    // Streamed under a limit, rows come out as without one (duplicate names, lists, structs, big integers).
    const sql = "SELECT 1 AS a, 2 AS a, [1, 2] AS l, {'x': 'y'} AS st, 2::HUGEINT ** 70 AS h, NULL AS z FROM range(3)";
    expect((await run(sql, { memoryMb: 64 })).out).toEqual((await run(sql, {})).out);
    expect(readdirSync(dir).filter((f) => f.includes(".tmp"))).toEqual([]);
    expect(existsSync(join(dir, "openmle.duckdb.tmp"))).toBe(false);
  });

  it("the memory limit is DuckDB's own setting, locked on a confined handle", async () => {
    const { out } = await run("SELECT current_setting('memory_limit') AS m", { memoryMb: 96 });
    expect(out).toEqual([{ m: "96.0 MiB" }]);
  });
});

describe("approxBytes", () => {
  it.each([
    ["a number", 1.5, 8],
    ["null", null, 8],
    ["a string", "abcd", 20],
    ["a row", { a: 1, b: "xy" }, 16 + (8 + 8) + (8 + 18)],
    ["a list", [1, 2], 16 + 2 * 16],
    ["bytes", new Uint8Array(10), 26],
  ])("%s", (_name, value, bytes) => expect(approxBytes(value)).toBe(bytes));
});
