import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CorruptWorkspaceError, NewerSchemaError, NotAWorkspaceError, ReadOnlyWorkspaceError, SCHEMA_VERSION, TABLES,
  WorkspaceClosedError, WorkspaceLockedError, exportParquet, fromArrow, importParquet, openWorkspace, toArrow, toDanfo, type Workspace,
} from "./index.js";

const open: Workspace[] = [];
const tmp = () => mkdtempSync(join(tmpdir(), "openmle-store-"));
async function fresh(dir = join(tmp(), "ws")) {
  const ws = await openWorkspace(dir);
  open.push(ws);
  return ws;
}
afterEach(() => {
  for (const ws of open.splice(0)) {
    try { ws.close(); } catch { /* already closed */ }
  }
});

describe("migrations", () => {
  it("creates every table at the current schema version", async () => {
    const ws = await fresh();
    expect(ws.schemaVersion).toBe(SCHEMA_VERSION);
    const rows = await ws.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables");
    const names = rows.map((r) => r.table_name);
    for (const t of TABLES) expect(names).toContain(t);
  });

  it("reopens without re-running migrations and keeps data", async () => {
    const dir = join(tmp(), "ws");
    const ws = await openWorkspace(dir);
    await ws.append("runs", [{ run_id: "r1", task_id: "t", seed: 7, config: { a: 1 } }]);
    ws.close();
    const again = await fresh(dir);
    expect(await again.query("SELECT run_id, seed FROM runs")).toEqual([{ run_id: "r1", seed: 7 }]);
  });

  it("refuses a workspace written by a newer schema and leaves it untouched", async () => {
    const dir = join(tmp(), "ws");
    const ws = await openWorkspace(dir);
    await ws.exec("UPDATE schema_meta SET value = '999' WHERE key = 'schema_version'");
    ws.close();
    const before = readFileSync(join(dir, "openmle.duckdb"));
    await expect(openWorkspace(dir)).rejects.toThrow(NewerSchemaError);
    await expect(openWorkspace(dir)).rejects.toThrow(/schema version 999.*Upgrade the kit/);
    expect(readFileSync(join(dir, "openmle.duckdb")).equals(before)).toBe(true);
  });
});

describe("bad input", () => {
  it("refuses a non-empty folder that is not a workspace", async () => {
    const dir = tmp();
    writeFileSync(join(dir, "notes.txt"), "hello");
    await expect(openWorkspace(dir)).rejects.toThrow(NotAWorkspaceError);
    await expect(openWorkspace(dir)).rejects.toThrow(dir);
    expect(existsSync(join(dir, "openmle.duckdb"))).toBe(false);
  });

  it("refuses a missing folder when opened read-only", async () => {
    await expect(openWorkspace(join(tmp(), "nope"), { readOnly: true })).rejects.toThrow(NotAWorkspaceError);
  });

  it("reports a corrupted database file by path and does not overwrite it", async () => {
    const dir = tmp();
    const garbage = Buffer.alloc(64 * 1024, 0x5a);
    writeFileSync(join(dir, "openmle.duckdb"), garbage);
    const err = await openWorkspace(dir).catch((e) => e);
    expect(err).toBeInstanceOf(CorruptWorkspaceError);
    expect(err.message).toContain(dir);
    expect(readFileSync(join(dir, "openmle.duckdb")).equals(garbage)).toBe(true);
  });

  it("rejects appends with unknown columns, naming the valid ones", async () => {
    const ws = await fresh();
    await expect(ws.append("runs", [{ run_id: "x", sede: 1 }])).rejects.toThrow(/unknown column "sede".*seed/);
  });

  it("read-only handles refuse writes", async () => {
    const dir = join(tmp(), "ws");
    (await openWorkspace(dir)).close();
    const ro = await openWorkspace(dir, { readOnly: true });
    open.push(ro);
    await expect(ro.exec("INSERT INTO runs (run_id) VALUES ('a')")).rejects.toThrow(ReadOnlyWorkspaceError);
  });
});

describe("single writer", () => {
  it("opening again in the same process (a re-run notebook cell) closes the earlier handle after its running statement", async () => {
    const dir = join(tmp(), "ws");
    const first = await fresh(dir);
    await first.append("runs", [{ run_id: "a" }]);
    const running = first.query("SELECT count(*) AS n FROM range(200000)");
    const second = await fresh(dir);
    expect(await running).toEqual([{ n: 200000 }]);
    const err = await first.query("SELECT 1").catch((e) => e);
    expect(err).toBeInstanceOf(WorkspaceClosedError);
    expect(err.message).toContain("opened again for writing in this process");
    await second.append("runs", [{ run_id: "b" }]);
    expect(await second.query("SELECT run_id FROM runs ORDER BY 1")).toEqual([{ run_id: "a" }, { run_id: "b" }]);
    expect(JSON.parse(readFileSync(join(dir, "openmle.lock"), "utf8")).pid).toBe(process.pid);
    first.close(); // harmless: it does not release the newer handle's lock
    expect(existsSync(join(dir, "openmle.lock"))).toBe(true);
    second.close();
    expect(existsSync(join(dir, "openmle.lock"))).toBe(false);
    await expect(second.query("SELECT 1")).rejects.toThrow(/close\(\) was called/);
  });

  it("a second process gets a clear error naming the holder, and the data survives", async () => {
    const dir = join(tmp(), "ws");
    const first = await openWorkspace(dir);
    await first.append("runs", [{ run_id: "kept" }]);
    first.close();

    const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "test-helpers/hold-writer.ts"), dir], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    await new Promise<void>((res, rej) => {
      child.stdout.on("data", (d) => String(d).includes("ready") && res());
      child.on("exit", (code) => rej(new Error(`holder exited ${code}`)));
    });
    const err = await openWorkspace(dir).catch((e) => e);
    expect(err).toBeInstanceOf(WorkspaceLockedError);
    expect(err.message).toContain(`pid ${child.pid}`);
    child.stdin.write("bye\n");
    await new Promise((res) => child.on("exit", res));

    const ws = await fresh(dir);
    expect(await ws.query("SELECT run_id FROM runs")).toEqual([{ run_id: "kept" }]);
  });

  it("a stale lock left by a killed writer is taken over", async () => {
    const dir = join(tmp(), "ws");
    (await openWorkspace(dir)).close();
    writeFileSync(join(dir, "openmle.lock"), JSON.stringify({ pid: 2 ** 22 + 12345, argv: ["gone"] }));
    const ws = await fresh(dir);
    expect(ws.readOnly).toBe(false);
  });
});

describe("bulk writes, Arrow and Parquet", () => {
  const cards = Array.from({ length: 5000 }, (_, i) => ({
    run_id: "r1",
    node_id: `n${i}`,
    operator: ["draft", "improve", "debug", "crossover"][i % 4],
    parents: i === 0 ? [] : [`n${i - 1}`],
    generation_id: Math.floor(i / 10),
    score: i % 7 === 0 ? null : i / 5000,
    prompt_tokens: i,
    imports: ["numpy", "sklearn"],
    method_family: i % 2 ? "xgboost" : "sklearn",
    champion_at_write: i === 4999,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)),
  }));

  it("appends through data chunks and reads back exact values", async () => {
    const ws = await fresh();
    expect(await ws.append("cards", cards)).toBe(5000);
    const [row] = await ws.query("SELECT node_id, parents, score, imports, champion_at_write FROM cards WHERE node_id = 'n4999'");
    expect(row).toEqual({ node_id: "n4999", parents: ["n4998"], score: 4999 / 5000, imports: ["numpy", "sklearn"], champion_at_write: true });
    const [{ n }] = await ws.query<{ n: number }>("SELECT count(*) AS n FROM cards WHERE score IS NULL");
    expect(n).toBe(cards.filter((c) => c.score === null).length);
  });

  it("round-trips a query through Arrow into a new table", async () => {
    const ws = await fresh();
    await ws.append("cards", cards);
    const q = "SELECT node_id, operator, parents, generation_id, score, prompt_tokens, champion_at_write, created_at FROM cards ORDER BY node_id";
    const table = await toArrow(ws, q);
    expect(table.numRows).toBe(5000);
    expect(table.schema.fields.map((f) => f.name)).toContain("parents");
    await fromArrow(ws, "cards_copy", table, { create: true });
    const a = await ws.query(q);
    const b = await ws.query(q.replace("FROM cards", "FROM cards_copy"));
    expect(b).toEqual(a);
  });

  it("appends an Arrow table into an existing table by column name", async () => {
    const ws = await fresh();
    await ws.append("cards", cards.slice(0, 10));
    const table = await toArrow(ws, "SELECT run_id, node_id, score FROM cards");
    await fromArrow(ws, "cards", table);
    const [{ n }] = await ws.query<{ n: number }>("SELECT count(*) AS n FROM cards");
    expect(n).toBe(20);
  });

  it("round-trips through Parquet", async () => {
    const ws = await fresh();
    await ws.append("cards", cards);
    const file = join(tmp(), "cards.parquet");
    await exportParquet(ws, "cards", file);
    const other = await fresh();
    expect(await importParquet(other, file, "cards")).toBe(5000);
    const q = "SELECT * EXCLUDE (created_at) FROM cards ORDER BY node_id";
    expect(await other.query(q)).toEqual(await ws.query(q));
    await exportParquet(ws, "SELECT operator, count(*) AS n FROM cards GROUP BY operator", join(tmp(), "agg.parquet"));
  });

  it("gives a danfojs DataFrame view of a query", async () => {
    const ws = await fresh();
    await ws.append("cards", cards.slice(0, 100));
    const df = await toDanfo(ws, "SELECT operator, avg(score) AS mean_score, count(*) AS n FROM cards GROUP BY operator ORDER BY operator");
    expect(df.shape).toEqual([4, 3]);
    expect(df.columns).toEqual(["operator", "mean_score", "n"]);
  });
});

it("workspace dirs nest inside other folders", async () => {
  const parent = tmp();
  mkdirSync(join(parent, "a"));
  const ws = await fresh(join(parent, "a", "b"));
  expect(ws.dir).toBe(join(parent, "a", "b"));
});
