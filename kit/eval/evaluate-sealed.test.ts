// evaluate() leaves out runs on the sealed suite:confirm's tasks (read only through `openmle experiment show`).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { openWorkspace } from "../store/index.js";
import { evaluate } from "./load-run-outcomes.js";

const saved = process.env.OPENMLE_CACHE;
afterEach(() => (saved === undefined ? delete process.env.OPENMLE_CACHE : (process.env.OPENMLE_CACHE = saved)));

test("runs on confirm tasks are left out with a warning that says where to read them", async () => {
  const root = mkdtempSync(join(tmpdir(), "openmle-sealed-eval-"));
  mkdirSync(join(root, "corpus"), { recursive: true });
  const task = (id: string, suite: string) => ({ id, suite });
  writeFileSync(join(root, "corpus", "index.json"), JSON.stringify({ tasks: [task("d", "dev"), task("c", "confirm")] }));
  process.env.OPENMLE_CACHE = root;
  const ws = await openWorkspace(join(root, "ws"));
  try {
    const run = (run_id: string, task_id: string) => ({
      run_id, task_id, harness: "openmle", seed: 1, config_hash: "h", status: "finished",
      summary: { champion: { nodeId: "n", testScore: 0.7 } },
    });
    await ws.append("runs", [run("r1", "d"), run("r2", "c"), run("r3", "c")]);
    const ev = await evaluate(ws, { leaderboards: {} });
    expect(ev.runs.map((r) => r.run_id)).toEqual(["r1"]);
    expect(ev.warnings).toEqual([
      "2 run(s) on tasks of the sealed suite:confirm left out: read them through their registered experiment " +
        "(openmle experiment list; openmle experiment show ID)",
    ]);
  } finally {
    ws.close();
  }
});
