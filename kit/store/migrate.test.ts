import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { migrate } from "./migrate.js";
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from "./schema.js";
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

describe("migration 7: cards.champion_at_write, runs.champion_*", () => {
  const summary = (nodeId: string, valid: number, test: number | null) =>
    JSON.stringify({ nodes: 2, champion: { nodeId, operator: "improve", methodFamily: "sklearn", validScore: valid, testScore: test } });

  it("migrates a version-6 workspace with rows: values kept, the column renamed, the champion backfilled", async () => {
    const { dir, conn } = await connect();
    const v6 = MIGRATIONS.filter((m) => m.version <= 6);
    expect(await migrate(conn, dir, false, v6)).toBe(6);
    await conn.run(`INSERT INTO runs (run_id, task_id, status, summary) VALUES
      ('r1', 'cars', 'finished', $s1), ('r2', 'cars', 'failed', $s2), ('r3', 'cars', 'running', NULL)`, {
      s1: summary("n0001", 2.5, 2.9),
      s2: JSON.stringify({ nodes: 1, champion: null }),
    });
    await conn.run(`INSERT INTO nodes (run_id, node_id, valid_score, fitness) VALUES
      ('r1', 'n0000', 3.0, -3.0), ('r1', 'n0001', 2.5, -2.5)`);
    await conn.run(`INSERT INTO cards (run_id, node_id, rank, is_champion, delta_vs_parent) VALUES
      ('r1', 'n0000', 1, true, NULL), ('r1', 'n0001', 1, true, 0.5), ('r1', 'n0002', 2, false, -0.1)`);

    expect(await migrate(conn, dir, false)).toBe(SCHEMA_VERSION);
    const cards = (await conn.runAndReadAll("SELECT node_id, rank, champion_at_write, delta_vs_parent FROM cards ORDER BY node_id")).getRowObjectsJS();
    expect(cards).toEqual([
      { node_id: "n0000", rank: 1, champion_at_write: true, delta_vs_parent: null },
      { node_id: "n0001", rank: 1, champion_at_write: true, delta_vs_parent: 0.5 },
      { node_id: "n0002", rank: 2, champion_at_write: false, delta_vs_parent: -0.1 },
    ]);
    const runs = (await conn.runAndReadAll(
      "SELECT run_id, status, champion_node_id, champion_valid_score, champion_test_score, champion_fitness FROM runs ORDER BY run_id",
    )).getRowObjectsJS();
    expect(runs).toEqual([
      { run_id: "r1", status: "finished", champion_node_id: "n0001", champion_valid_score: 2.5, champion_test_score: 2.9, champion_fitness: -2.5 },
      { run_id: "r2", status: "failed", champion_node_id: null, champion_valid_score: null, champion_test_score: null, champion_fitness: null },
      { run_id: "r3", status: "running", champion_node_id: null, champion_valid_score: null, champion_test_score: null, champion_fitness: null },
    ]);
    const cols = (await conn.runAndReadAll("SELECT column_name FROM information_schema.columns WHERE table_name = 'cards'")).getRowObjectsJS();
    expect(cols.map((c) => c.column_name)).not.toContain("is_champion");
  });
});
