import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceError, openWorkspace, type Workspace } from "./index.js";

let ws: Workspace;
beforeAll(async () => {
  ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-columns-")), "ws"));
  await ws.exec(`CREATE TABLE kinds (
    s VARCHAR, l VARCHAR[], j JSON, t TIMESTAMP, d DOUBLE, f FLOAT, i INTEGER, si SMALLINT, b BIGINT, ok BOOLEAN,
    dl DOUBLE[], st STRUCT(a INTEGER, b VARCHAR), created_at TIMESTAMP DEFAULT current_timestamp)`);
});
afterAll(() => ws.close());

describe("appendColumns", () => {
  it("writes every column type and reads back exact values, NULLs included", async () => {
    const long = "a string well past twelve bytes";
    await ws.exec("DELETE FROM kinds");
    const before = Date.now();
    const n = await ws.appendColumns("kinds", {
      s: ["short", long, null, "", "héllo wörld", "日本語のテキスト"],
      l: [["a", long], [], null, ["x"], ["ünï", "çødé"], undefined],
      j: [{ a: 1, b: [2, 3] }, "already json", null, [1], { nested: { deep: true } }, 7],
      t: [new Date("2026-01-02T03:04:05.678Z"), Date.parse("2020-02-29T00:00:00Z"), null, "2021-05-06T07:08:09Z", undefined, 0],
      d: [1.5, null, -0, Number.MAX_VALUE, undefined, Number.NaN],
      f: [0.5, 1.25, null, -2, 3, 4],
      i: [1, -2_147_483_648, null, 2_147_483_647, 3.9, -3.9],
      si: [1, 2, 3, null, 5, -32_768],
      b: [1n, 9_007_199_254_740_993n, null, 42, -7, 0],
      ok: [true, false, null, 1, 0, undefined],
      dl: [[1.5, null], null, [], [2], [3, 4, 5], [6]],
    });
    expect(n).toBe(6);
    const rows = await ws.query(`SELECT s, l, j::VARCHAR AS j, t, d, isnan(d) AS nan, f, i, si, b, ok, dl, created_at FROM kinds ORDER BY rowid`);
    expect(rows.map((r) => r.s)).toEqual(["short", long, null, "", "héllo wörld", "日本語のテキスト"]);
    expect(rows.map((r) => r.l)).toEqual([["a", long], [], null, ["x"], ["ünï", "çødé"], null]);
    expect(rows.map((r) => r.j)).toEqual(['{"a":1,"b":[2,3]}', "already json", null, "[1]", '{"nested":{"deep":true}}', "7"]);
    expect(rows.map((r) => (r.t instanceof Date ? r.t.toISOString() : r.t))).toEqual([
      "2026-01-02T03:04:05.678Z", "2020-02-29T00:00:00.000Z", null, "2021-05-06T07:08:09.000Z", null, "1970-01-01T00:00:00.000Z",
    ]);
    expect(rows.map((r) => r.d).slice(0, 5)).toEqual([1.5, null, -0, Number.MAX_VALUE, null]);
    expect(rows[5]!.nan).toBe(true);
    expect(rows.map((r) => r.f)).toEqual([0.5, 1.25, null, -2, 3, 4]);
    expect(rows.map((r) => r.i)).toEqual([1, -2_147_483_648, null, 2_147_483_647, 3, -3]);
    expect(rows.map((r) => r.si)).toEqual([1, 2, 3, null, 5, -32_768]);
    expect(rows.map((r) => r.b)).toEqual([1, 9_007_199_254_740_993n, null, 42, -7, 0]);
    expect(rows.map((r) => r.ok)).toEqual([true, false, null, true, false, null]);
    expect(rows.map((r) => r.dl)).toEqual([[1.5, null], null, [], [2], [3, 4, 5], [6]]);
    // created_at was left out: every row gets the time of the append.
    for (const r of rows) {
      const t = (r.created_at as Date).getTime();
      expect(t).toBeGreaterThanOrEqual(before - 1000);
      expect(t).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  it("takes typed arrays for numeric columns and fills a given created_at only where it is null", async () => {
    await ws.exec("DELETE FROM kinds");
    const d = Float64Array.from([0.25, -1, 1e300]);
    const i = Int32Array.from([7, -8, 9]);
    const given = new Date("2001-01-01T00:00:00Z");
    await ws.appendColumns("kinds", { d, i, created_at: [given, null, undefined] });
    const rows = await ws.query<{ d: number; i: number; created_at: Date; s: string | null }>("SELECT d, i, created_at, s FROM kinds ORDER BY rowid");
    expect(rows.map((r) => r.d)).toEqual([0.25, -1, 1e300]);
    expect(rows.map((r) => r.i)).toEqual([7, -8, 9]);
    expect(rows.map((r) => r.s)).toEqual([null, null, null]);
    expect(rows[0]!.created_at.toISOString()).toBe("2001-01-01T00:00:00.000Z");
    expect(rows[1]!.created_at.getTime()).toBeGreaterThan(given.getTime());
  });

  it("spans several data chunks with NULLs and repeated strings in each", async () => {
    await ws.exec("DELETE FROM kinds");
    const n = 5000; // 2,048 rows per chunk: three chunks, the last partial
    const s = Array.from({ length: n }, (_, k) => (k % 7 === 0 ? null : k % 3 === 0 ? `unique-${k}-with-a-long-tail` : ["a", "bb", "ccc"][k % 3]!));
    const d = Array.from({ length: n }, (_, k) => (k % 5 === 0 ? null : k / 2));
    const l = Array.from({ length: n }, (_, k) => (k % 11 === 0 ? null : Array.from({ length: k % 4 }, (_, m) => `${k}.${m}`)));
    await ws.appendColumns("kinds", { s, d, l });
    const back = await ws.query<{ s: string | null; d: number | null; l: string[] | null }>("SELECT s, d, l FROM kinds ORDER BY rowid");
    expect(back.map((r) => r.s)).toEqual(s);
    expect(back.map((r) => r.d)).toEqual(d);
    expect(back.map((r) => r.l)).toEqual(l);
  });

  it("append(rows) stores the same as appendColumns of the same data", async () => {
    await ws.exec("DELETE FROM kinds");
    const rows = [
      { s: "x", l: ["p", "q"], j: { k: 1 }, d: 2.5, i: 3, ok: true },
      { s: null, l: null, j: null, d: null, i: null, ok: null },
    ];
    await ws.append("kinds", rows);
    await ws.appendColumns("kinds", { s: ["x", null], l: [["p", "q"], null], j: [{ k: 1 }, null], d: [2.5, null], i: [3, null], ok: [true, null] });
    const back = await ws.query("SELECT s, l, j::VARCHAR AS j, d, i, ok FROM kinds ORDER BY rowid");
    expect(back.slice(0, 2)).toEqual(back.slice(2));
    expect(back[0]).toEqual({ s: "x", l: ["p", "q"], j: '{"k":1}', d: 2.5, i: 3, ok: true });
  });

  it("keeps the cards table's column types", async () => {
    await ws.appendColumns("cards", { run_id: ["r"], node_id: ["n"], parents: [["a", "b"]], score: [null], generation_id: Int32Array.of(4), imports: [["numpy"]] });
    const [row] = await ws.query("SELECT run_id, node_id, parents, score, generation_id, imports, created_at IS NOT NULL AS stamped FROM cards");
    expect(row).toEqual({ run_id: "r", node_id: "n", parents: ["a", "b"], score: null, generation_id: 4, imports: ["numpy"], stamped: true });
    const types = await ws.query<{ column_name: string; data_type: string }>(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'cards' AND column_name IN ('parents', 'score', 'created_at')",
    );
    expect(Object.fromEntries(types.map((t) => [t.column_name, t.data_type]))).toEqual({ parents: "VARCHAR[]", score: "DOUBLE", created_at: "TIMESTAMP" });
  });

  it("refuses unknown columns and columns of different lengths", async () => {
    await expect(ws.appendColumns("kinds", { s: ["a"], nope: [1] })).rejects.toThrow(/unknown column "nope"/);
    await expect(ws.appendColumns("kinds", { s: ["a", "b"], d: [1] })).rejects.toThrow(WorkspaceError);
    await expect(ws.appendColumns("kinds", { s: ["a", "b"], d: [1] })).rejects.toThrow(/different lengths.*s: 2, d: 1/);
    expect(await ws.appendColumns("kinds", { s: [] })).toBe(0);
    await expect(ws.appendColumns("kinds", { st: [{ a: 1, b: "x" }] })).rejects.toThrow(/st has type STRUCT.*insert it with SQL/);
  });
});
