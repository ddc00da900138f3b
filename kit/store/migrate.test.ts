import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { migrate } from "./migrate.js";
import { MIGRATIONS, type Migration } from "./schema.js";
import { NewerSchemaError, WorkspaceError } from "./errors.js";

async function connect() {
  const dir = mkdtempSync(join(tmpdir(), "openmle-migrate-"));
  const db = await DuckDBInstance.create(join(dir, "x.duckdb"));
  return { dir, conn: await db.connect() };
}
const version = async (conn: Awaited<ReturnType<typeof connect>>["conn"]) =>
  Number((await conn.runAndReadAll("SELECT value FROM schema_meta WHERE key='schema_version'")).getRowObjectsJS()[0]!.value);

const v2: Migration = { version: 2, description: "add a column", sql: ["ALTER TABLE runs ADD COLUMN note VARCHAR"] };
const broken: Migration = { version: 2, description: "broken", sql: ["ALTER TABLE runs ADD COLUMN ok VARCHAR", "ALTER TABLE nope ADD COLUMN x INT"] };

describe("forward migrations", () => {
  it("applies only the missing migrations and keeps existing rows", async () => {
    const { dir, conn } = await connect();
    expect(await migrate(conn, dir, false, MIGRATIONS.slice(0, 1))).toBe(1);
    await conn.run("INSERT INTO runs (run_id) VALUES ('r1')");
    expect(await migrate(conn, dir, false, [...MIGRATIONS.slice(0, 1), v2])).toBe(2);
    expect(await version(conn)).toBe(2);
    const rows = (await conn.runAndReadAll("SELECT run_id, note FROM runs")).getRowObjectsJS();
    expect(rows).toEqual([{ run_id: "r1", note: null }]);
  });

  it("rolls a failing migration back completely and reports which one failed", async () => {
    const { dir, conn } = await connect();
    await migrate(conn, dir, false, MIGRATIONS.slice(0, 1));
    await expect(migrate(conn, dir, false, [...MIGRATIONS.slice(0, 1), broken])).rejects.toThrow(/migration 2 \(broken\) failed/);
    expect(await version(conn)).toBe(1);
    const cols = (await conn.runAndReadAll("SELECT column_name FROM information_schema.columns WHERE table_name='runs'")).getRowObjectsJS();
    expect(cols.map((c) => c.column_name)).not.toContain("ok");
  });

  it("refuses to migrate through a read-only handle, and refuses newer versions", async () => {
    const { dir, conn } = await connect();
    await migrate(conn, dir, false, MIGRATIONS.slice(0, 1));
    await expect(migrate(conn, dir, true, [...MIGRATIONS.slice(0, 1), v2])).rejects.toThrow(/Open it once for writing/);
    await migrate(conn, dir, false, [...MIGRATIONS.slice(0, 1), v2]);
    await expect(migrate(conn, dir, false, MIGRATIONS.slice(0, 1))).rejects.toThrow(NewerSchemaError);
  });

  it("refuses a DuckDB file that holds someone else's tables", async () => {
    const { dir, conn } = await connect();
    await conn.run("CREATE TABLE foreign_stuff (x INT)");
    const err = await migrate(conn, dir, false).catch((e) => e);
    expect(err).toBeInstanceOf(WorkspaceError);
    expect(err.message).toMatch(/not made by this kit/);
  });
});
