import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { recordedRunsDir } from "../report/recorded-runs.js";
import { importParquet, openWorkspace, TABLES, type Workspace } from "../store/index.js";
import { renderRunStats, runsStats } from "./runs-stats-cmd.js";

const main = join(import.meta.dirname, "main.ts");
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** One run of a lower-is-better task: draft 4, improve 3.5 (gain 0.5), failed debug, crossover 3.25 at step 3 of 4. */
async function oneRun(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "openmle-stats-")), "ws");
  const ws = await openWorkspace(dir);
  await ws.append("tasks", [{ task_id: "houses", name: "houses", metric: "rmse", higher_is_better: false }]);
  await ws.append("runs", [{ run_id: "r1", task_id: "houses", harness: "openmle", policy: "grammar", seed: 1, status: "finished",
    config: JSON.stringify({ steps: 4 }), summary: JSON.stringify({ champion: { nodeId: "n0003" } }) }]);
  const node = (id: string, step: number, operator: string, parents: string[], score: number | null) => ({
    run_id: "r1", node_id: id, step, operator, parents, status: score === null ? "runtime_error" : "success", valid_score: score,
  });
  await ws.append("nodes", [
    node("n0000", 0, "draft", [], 4), node("n0001", 1, "improve", ["n0000"], 3.5),
    node("n0002", 2, "debug", ["n0001"], null), node("n0003", 3, "crossover", ["n0001", "n0000"], 3.25),
  ]);
  ws.close();
  return dir;
}

describe("openmle runs stats", () => {
  let dir: string;
  let recorded: Workspace;
  beforeAll(async () => {
    dir = await oneRun();
    // openRecordedRuns removes its folder when closed (issue 59): the CLI reads the recording imported here instead.
    recorded = await openWorkspace(join(mkdtempSync(join(tmpdir(), "runs-stats-cars-")), "ws"));
    for (const t of TABLES)
      if (existsSync(join(recordedRunsDir("cars"), `${t}.parquet`))) await importParquet(recorded, join(recordedRunsDir("cars"), `${t}.parquet`), t);
    recorded.close(); // the CLI opens it itself
  });

  it("a one-run workspace needs no --run; tables for people, the late share in words", async () => {
    const s = await runsStats(dir);
    expect(s.operators.find((o) => o.operator === "crossover")).toMatchObject({ beat_parent_rate: 1, total_gain: 0.25 });
    expect(s.gain_share).toMatchObject({ step_budget: 4, late_from_step: 2, total_gain: 0.75 });
    const r = cli("runs", "stats", "--workspace", dir);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${renderRunStats(s)}\n`);
    expect(r.out).toMatch(/run r1: openmle on houses \(lower is better\), 4 nodes, champion n0003/);
    expect(r.out).toMatch(/improve\s+1\s+1\/1 \(100\.0%\)\s+1\/1 \(100\.0%\)\s+0\.5\s+0\.5/);
    expect(r.out).toMatch(/debug\s+1\s+0\/1 \(0\.0%\)\s+0\/1 \(0\.0%\)\s+—\s+—/);
    expect(r.out).toMatch(/best-score curve: 3 records in 4 steps/);
    expect(r.out).toMatch(/n0000\s+draft\s+4\s+—\n.*n0001\s+improve\s+3\.5\s+0\.5\n.*n0003\s+crossover\s+3\.25\s+0\.25/);
    expect(r.out).toMatch(/late improve\/crossover: 33\.3% of validation gains \(improve\/crossover over the whole run: 100\.0%\)/);
    expect(r.out).not.toMatch(/NaN|undefined|0\.33333/);
  });

  it("--json: snake_case keys, full-precision numbers", () => {
    const j = JSON.parse(cli("runs", "stats", "--workspace", dir, "--json", "--late-from", "0.75").out);
    expect(j).toMatchObject({ run_id: "r1", champion_node_id: "n0003", gain_share: { late_from_step: 3 } });
    expect(j.champion_vs_draft).toMatchObject({ champion: { node_id: "n0003" }, best_draft: { node_id: "n0000" } });
    expect(j.gain_share.late_improve_crossover_share).toBeCloseTo(1 / 3, 15);
    expect(j.lineage.map((l: { node_id: string }) => l.node_id)).toEqual(["n0000", "n0001", "n0003"]);
  });

  it("the recorded cars runs: four runs need --run, the openmle run's late share is 2.4%", () => {
    const many = cli("runs", "stats", "--workspace", recorded.dir);
    expect(many.code).toBe(1);
    expect(many.err).toBe(
      `openmle: workspace ${recorded.dir} holds 4 runs: pass --run <id>, one of run-e3833022 (openmle, finished), run-0fd6ad41 (aira-evo, finished), run-8a16298d (aide, finished), run-734fa811 (mcts, finished)\n`,
    );
    const r = cli("runs", "stats", "--workspace", recorded.dir, "--run", "run-e3833022");
    expect(r.out).toMatch(/champion n0026/);
    expect(r.out).toMatch(/late improve\/crossover: 2\.4% of validation gains/);
  });

  it.each([
    { args: ["--workspace", "/nonexistent/ws"], err: /is not an OpenMLE workspace/ },
    { args: ["--workspace", "W", "--run", "nope"], err: /^openmle: run "nope" is not in workspace .*; its runs: r1 \(openmle, finished\)$/ },
    { args: ["--workspace", "W", "--late-from", "x"], err: /^openmle: --late-from x is not a number: use a number from 0 to 1\.$/ },
  ])("bad input $args: one line, exit 1", ({ args, err }) => {
    const r = cli("runs", "stats", ...args.map((a) => (a === "W" ? dir : a)));
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split("\n")).toHaveLength(1);
    expect(r.err.trimEnd()).toMatch(err);
  });
});
