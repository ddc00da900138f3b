// The run-reading commands (runs list, runs stats, node, report, the dashboard) leave out runs on the sealed
// suite:confirm's tasks: those are read only through their registered experiment, which logs the look.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { loadRunViews } from "../report/index.js";
import { openWorkspace } from "../store/index.js";
import { resolveRunFlag } from "./run-flag.js";
import { listRuns, sealedRunCount } from "./runs-cmd.js";

const saved = process.env.OPENMLE_CACHE;
let dir: string;
beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), "openmle-sealed-runs-"));
  mkdirSync(join(root, "corpus"), { recursive: true });
  const task = (id: string, suite: string) => ({ id, suite });
  writeFileSync(join(root, "corpus", "index.json"), JSON.stringify({ tasks: [task("d", "dev"), task("c", "confirm")] }));
  process.env.OPENMLE_CACHE = root;
  dir = join(root, "ws");
  const ws = await openWorkspace(dir);
  const run = (run_id: string, task_id: string) => ({
    run_id, task_id, harness: "openmle", policy: "grammar", seed: 1, config_hash: "h", status: "finished",
  });
  await ws.append("runs", [run("r1", "d"), run("r2", "c")]);
  ws.close();
});
afterAll(() => (saved === undefined ? delete process.env.OPENMLE_CACHE : (process.env.OPENMLE_CACHE = saved)));

test("runs list, --run and the report's views see the dev run only; a named confirm run says where to read it", async () => {
  expect((await listRuns(dir)).map((r) => r.runId)).toEqual(["r1"]);
  expect(await sealedRunCount(dir)).toBe(1);
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    expect(await resolveRunFlag(ws)).toBe("r1"); // the only run these commands can see
    await expect(resolveRunFlag(ws, "r2")).rejects.toThrow(
      'run "r2" searched c, a task of the sealed suite:confirm: read it through its registered experiment ' +
        "(openmle experiment list; openmle experiment show ID)",
    );
    // the report and dashboard: a confirm run is not among the runs it can show
    await expect(loadRunViews(ws, "r2")).rejects.toThrow(/r2/);
    await expect(loadRunViews(ws, "r2")).rejects.toThrow(/r1/);
  } finally {
    ws.close();
  }
});
