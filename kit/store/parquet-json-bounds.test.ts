// A Parquet file's JSON cells checked before import, against real DuckDB files: the crafted export of issue 59.6
// (params nested 20,000 deep) and an oversized cell are refused naming file, column and row; the recorded runs pass.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonBoundsError } from "./bounded-json.js";
import { checkParquetJson } from "./parquet-json-bounds.js";
import { exportParquet } from "./parquet.js";
import { openWorkspace, type Workspace } from "./workspace.js";

const dir = mkdtempSync(join(tmpdir(), "parquet-json-"));
const RECORDED = join(new URL("../..", import.meta.url).pathname, "data", "recorded-runs", "learning-armA");
let ws: Workspace;
beforeAll(async () => {
  ws = await openWorkspace(join(dir, "ws"));
  const row = (params: string, name: string) =>
    `SELECT '${name}' AS name, 'grammar' AS policy, '${params}'::JSON AS params, 'x' AS note`;
  const deep = `{"version":3,"logits":{"x":${"[".repeat(20_000)}${"]".repeat(20_000)}}}`;
  await exportParquet(ws, `${row('{"version":3,"logits":{}}', "ok")} UNION ALL ${row(deep, "deep")}`, join(dir, "deep.parquet"));
  await exportParquet(ws, row(`{"a":"${"x".repeat(300)}"}`, "big"), join(dir, "big.parquet"));
  // Brackets in a column the table does not keep as JSON are text, not nesting.
  await exportParquet(ws, `SELECT 'n' AS name, '${"[".repeat(100)}' AS note`, join(dir, "text.parquet"));
});
afterAll(() => {
  ws?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("checkParquetJson", () => {
  it.each([
    ["params nested 20,000 deep", "deep.parquet", {}, /deep\.parquet \(column params, row 2\) nests JSON more than 64 levels deep/],
    ["a cell over the byte limit", "big.parquet", { maxBytes: 256 }, /big\.parquet \(column params, row 1\) is 308 bytes of JSON, past the kit's limit of 256 bytes/],
  ])("refuses %s, in one line", async (_, file, bounds, message) => {
    const e = await checkParquetJson(ws, join(dir, file), "policy_checkpoints", bounds).catch((err: Error) => err);
    expect(e).toBeInstanceOf(JsonBoundsError);
    expect((e as Error).message).toMatch(message);
    expect((e as Error).message).not.toContain("\n");
  });

  it("passes text columns, new tables (--create) and every table the kit recorded", async () => {
    await checkParquetJson(ws, join(dir, "text.parquet"), "policy_checkpoints");
    for (const t of ["policy_checkpoints", "loops", "loop_stages", "rl_runs", "tasks"])
      await checkParquetJson(ws, join(RECORDED, `${t}.parquet`), t);
    // Without a table only JSON-typed columns count: the file's params column is JSON.
    await expect(checkParquetJson(ws, join(dir, "deep.parquet"), null)).rejects.toThrow(/column params, row 2/);
  });
});
