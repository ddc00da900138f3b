import { createServer, type Server } from "node:net";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWorkspace, ReadOnlyWorkspaceError, type Workspace } from "./index.js";

// Issue 10 point 3: SQL on a read-only handle cannot write, and a confined one cannot reach files,
// the network or settings. Each attack ran on the previous kit (the keyword check let them through).
let dir: string;
let server: Server;
let port: number;
let connections = 0;
beforeAll(async () => {
  dir = join(mkdtempSync(join(tmpdir(), "openmle-ro-")), "ws");
  const w = await openWorkspace(dir);
  await w.append("runs", [{ run_id: "r1", task_id: "t", seed: 1 }]);
  w.close();
  // A listening port on 127.0.0.1 that counts connections: INSTALL ... FROM must never reach it.
  server = createServer((s) => { connections++; s.destroy(); });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => server.close());

const db = () => join(dir, "openmle.duckdb");
/** Attacks on a read-only handle; `$DB` is the workspace's database file. */
const WRITES = [
  ["two statements, the second a COPY over the database", "SELECT 1; COPY (SELECT 'junk' AS x) TO '$DB' (FORMAT csv)"],
  ["a comment hides a COPY into the WAL", "/**/ COPY (SELECT 'junk' AS x) TO '$DB.wal' (FORMAT csv)"],
  ["a line comment and whitespace before INSERT", "-- hi\n  INSERT INTO runs (run_id) VALUES ('x')"],
  ["EXPLAIN ANALYZE runs the COPY it explains", "EXPLAIN ANALYZE COPY (SELECT 1) TO '$DB.wal'"],
  ["CREATE TEMP TABLE", "CREATE TEMP TABLE z AS SELECT 1"],
  ["SET undoes the confinement", "SET enable_external_access = true"],
  ["ATTACH another file", "ATTACH '$DB.other' AS o"],
  ["CHECKPOINT", "CHECKPOINT"],
] as const;
const READS = [
  ["read_csv of a host file", "SELECT * FROM read_csv('/etc/passwd')"],
  ["read_text of a host file", "SELECT * FROM read_text('/etc/passwd')"],
  ["a bare file path as a table", "SELECT * FROM '/etc/passwd'"],
  ["glob of a host folder", "SELECT * FROM glob('/etc/*')"],
] as const;

async function withHandle<T>(opts: { confined: boolean }, fn: (w: Workspace) => Promise<T>): Promise<T> {
  const w = await openWorkspace(dir, { readOnly: true, ...opts });
  try {
    return await fn(w);
  } finally {
    w.close();
  }
}

describe("read-only handles run one SELECT", () => {
  it.each(WRITES)("refuses: %s", async (_name, sql) => {
    const before = readFileSync(db());
    for (const confined of [false, true]) {
      await withHandle({ confined }, async (w) => {
        await expect(w.query(sql.replaceAll("$DB", db()))).rejects.toThrow(ReadOnlyWorkspaceError);
        await expect(w.exec(sql.replaceAll("$DB", db()))).rejects.toThrow(ReadOnlyWorkspaceError);
      });
    }
    expect(readFileSync(db()).equals(before)).toBe(true);
    expect(() => statSync(`${db()}.wal`)).toThrow();
  });

  it("still answers SELECT, WITH, DESCRIBE, SUMMARIZE and parameters", async () => {
    await withHandle({ confined: true }, async (w) => {
      expect(await w.query("SELECT run_id, seed FROM runs WHERE seed = $s", { s: 1 })).toEqual([{ run_id: "r1", seed: 1 }]);
      expect(await w.query("WITH a AS (SELECT 2 AS x) SELECT x FROM a;")).toEqual([{ x: 2 }]);
      expect((await w.query("DESCRIBE runs")).length).toBeGreaterThan(3);
      expect((await w.query("SUMMARIZE runs")).length).toBeGreaterThan(3);
      expect(await w.query("SELECT 'a;b' AS s -- ; COPY")).toEqual([{ s: "a;b" }]);
    });
  });
});

describe("confined handles (openmle workspace query) reach nothing outside the database", () => {
  it.each(READS)("refuses: %s", async (_name, sql) => {
    await withHandle({ confined: true }, async (w) => {
      const err = await w.query(sql).catch((e) => e);
      expect(err).toBeInstanceOf(Error); // no rows: DuckDB refuses the file (or, for a bare path, finds no such table)
      expect(err.message).not.toMatch(/root:/);
      if (!sql.includes("FROM '")) expect(err.message).toMatch(/cannot read or write files/);
    });
  });

  it("INSTALL ... FROM a URL is refused before any connection", async () => {
    await withHandle({ confined: true }, async (w) => {
      for (const sql of [`INSTALL httpfs FROM 'http://127.0.0.1:${port}/x'`, `SELECT * FROM read_csv('http://127.0.0.1:${port}/a.csv')`]) {
        await expect(w.query(sql)).rejects.toThrow(ReadOnlyWorkspaceError);
      }
    });
    expect(connections).toBe(0);
  });

  it("settings stay locked", async () => {
    await withHandle({ confined: true }, async (w) => {
      const rows = await w.query<{ name: string; value: string }>(
        "SELECT name, value FROM duckdb_settings() WHERE name IN ('enable_external_access', 'lock_configuration') ORDER BY name",
      );
      expect(rows).toEqual([{ name: "enable_external_access", value: "false" }, { name: "lock_configuration", value: "true" }]);
    });
  });
});
