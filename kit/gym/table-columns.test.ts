import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { buildTask, type BuildEvent } from "./build-task.js";
import { TaskSpecError } from "./errors.js";
import { freshIdColumn, tableColumns } from "./table-columns.js";

const tmp = mkdtempSync(join(tmpdir(), "gym-columns-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

describe("freshIdColumn: a generated id never takes over a column", () => {
  test.each([
    [[], "id"],
    [["x", "y"], "id"],
    [["id", "x"], "row_id"],
    [["id", "row_id"], "row_id_3"],
    [["id", "row_id", "row_id_3"], "row_id_4"],
    [["ID", "Id"], "id"], // names are case-sensitive, as pandas reads them
  ])("%j → %s", (names, want) => expect(freshIdColumn(names)).toBe(want));
});

describe("tableColumns: the header as prepare.py reads it", () => {
  test.each([
    ["plain.csv", "a,b,c\n1,2,3\n", ["a", "b", "c"]],
    ["quoted.csv", '"a, b","c ""q""",d\n1,2,3\n', ["a, b", 'c "q"', "d"]],
    ["bom.csv", "\uFEFFid,y\r\n1,2\r\n", ["id", "y"]],
    ["records.json", '[{"a":1,"b":2},{"b":3,"c":4}]', ["a", "b", "c"]],
    ["lines.jsonl", '{"x":1}\n\n{"y":2,"x":3}\n', ["x", "y"]],
  ])("%s", (name, text, want) => expect(tableColumns(file(name, text))).toEqual(want));

  test.each([
    ["empty.csv", ""],
    ["scalar.json", "3"],
    ["broken.json", "[{"],
    ["nofields.jsonl", "1\n2\n"],
  ])("%s: TaskSpecError with the fix", (name, text) => {
    expect(() => tableColumns(file(name, text))).toThrow(TaskSpecError);
    expect(() => tableColumns(file(name, text))).toThrow(/Fix: pass a CSV with a header row/);
  });
});

describe("buildTask without idColumn", () => {
  test("a table's own `id` column stays a feature; the generated ids go to `row_id`", async () => {
    // `id` here is a measurement that repeats (a shop id), not a row key: it must not become the submission id.
    const rows = Array.from({ length: 200 }, (_, i) => `${i % 7},${(i * 37) % 101},${i % 2 ? "a" : "b"}`);
    const table = file("shops.csv", `id,x,y\n${rows.join("\n")}\n`);
    const events: BuildEvent[] = [];
    const t = await buildTask(
      { id: "shops", table, target: "y", metric: "accuracy" },
      { outDir: join(tmp, "shops"), onEvent: (e) => events.push(e) },
    );
    expect(t.meta.idColumn).toBe("row_id");
    expect(events.find((e) => e.type === "id-generated")).toEqual({ type: "id-generated", taskId: "shops", idColumn: "row_id", shadowed: "id" });
    expect(readFileSync(join(t.publicDir, "train.csv"), "utf8").split("\n")[0]).toBe("row_id,id,x,y");
    // Named explicitly, a unique column is the id as before.
    const keyed = file("keyed.csv", `key,x,y\n${rows.map((r, i) => `k${i},${r.split(",").slice(1).join(",")}`).join("\n")}\n`);
    const k = await buildTask({ id: "keyed", table: keyed, target: "y", metric: "accuracy", idColumn: "key" }, { outDir: join(tmp, "keyed") });
    expect(k.meta.idColumn).toBe("key");
  }, 120_000);
});
