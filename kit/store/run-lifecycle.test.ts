import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configHash, endRun, openRun, openWorkspace, readRun, type OpenRunSpec, type Workspace } from "./index.js";

const open: Workspace[] = [];
afterEach(() => {
  for (const ws of open.splice(0)) ws.close();
});
async function fresh() {
  const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-lifecycle-")), "ws"));
  open.push(ws);
  return ws;
}
class NotStored extends Error {}
class Mismatch extends Error {}
const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);
const spec = (over: Partial<OpenRunSpec<{ steps: number }>> = {}): OpenRunSpec<{ steps: number }> => ({
  table: "loops", id: "L1", mode: "auto",
  fresh: () => ({ steps: 4 }),
  resumed: (stored) => ({ steps: (stored as { steps: number }).steps + 1 }),
  columns: () => ({ train_tasks: JSON.stringify(["wine"]), heldout_tasks: JSON.stringify(["cars"]) }),
  notFound: () => new NotStored("not stored"),
  now: () => T0,
  ...over,
});

describe("openRun / endRun", () => {
  it("creates a running row with the config, its hash and the injected start time", async () => {
    const ws = await fresh();
    const r = await openRun(ws, spec());
    expect(r).toMatchObject({ id: "L1", config: { steps: 4 }, resumed: false, stored: null });
    const [row] = await ws.query("SELECT * FROM loops");
    expect(row).toMatchObject({ status: "running", config_hash: configHash({ steps: 4 }), started_at: new Date(T0), ended_at: null });
  });

  it("resumes a stored run: the check sees it, the config is re-parsed, the row is running again", async () => {
    const ws = await fresh();
    await openRun(ws, spec());
    await endRun(ws, "loops", "L1", "failed", undefined, () => T0 + 1000);
    expect((await readRun(ws, "loops", "L1"))!.row.ended_at).toEqual(new Date(T0 + 1000));
    const seen: string[] = [];
    const r = await openRun(ws, spec({ check: (s) => void seen.push(s.status) }));
    expect(seen).toEqual(["failed"]);
    expect(r).toMatchObject({ config: { steps: 5 }, resumed: true });
    expect((await readRun(ws, "loops", "L1"))!.row).toMatchObject({ status: "running", ended_at: null });
  });

  it("resume of an unknown id throws the caller's error; a failed check writes nothing", async () => {
    const ws = await fresh();
    await expect(openRun(ws, spec({ mode: "resume" }))).rejects.toBeInstanceOf(NotStored);
    await openRun(ws, spec());
    await endRun(ws, "loops", "L1", "finished");
    await expect(openRun(ws, spec({ check: () => { throw new Mismatch("other tasks"); } }))).rejects.toBeInstanceOf(Mismatch);
    expect((await readRun(ws, "loops", "L1"))!.status).toBe("finished");
  });

  it("resume without the caller's error throws the store's, naming the table and id", async () => {
    const ws = await fresh();
    await expect(openRun(ws, spec({ mode: "resume", notFound: undefined }))).rejects.toThrow(/no loops row "L1"/);
  });

  it("ends a run with its summary where the table keeps one (runs, rl_runs)", async () => {
    const ws = await fresh();
    const columns = () => ({ task_id: "cars", harness: "openmle", policy: "grammar", seed: 1 });
    await openRun(ws, spec({ table: "runs", id: "r1", mode: "new", columns }));
    await endRun(ws, "runs", "r1", "killed", { nodes: 3 }, () => T0 + 2000);
    const stored = (await readRun(ws, "runs", "r1"))!;
    expect(stored.status).toBe("killed");
    expect(stored.config).toEqual({ steps: 4 });
    expect(JSON.parse(stored.row.summary as string)).toEqual({ nodes: 3 });
    expect(stored.row.ended_at).toEqual(new Date(T0 + 2000));
  });

  it("writes the table's own end-of-run columns in the same statement (evo's final champion)", async () => {
    const ws = await fresh();
    const columns = () => ({ task_id: "cars", harness: "openmle", policy: "grammar", seed: 1 });
    await openRun(ws, spec({ table: "runs", id: "r1", mode: "new", columns }));
    const champion = { champion_node_id: "n0007", champion_valid_score: 2.5, champion_test_score: null, champion_fitness: -2.5 };
    await endRun(ws, "runs", "r1", "finished", { nodes: 8 }, () => T0 + 3000, champion);
    const row = (await readRun(ws, "runs", "r1"))!.row;
    expect(row).toMatchObject({ status: "finished", ...champion, ended_at: new Date(T0 + 3000) });
  });
});
