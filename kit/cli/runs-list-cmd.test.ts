import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";

const main = join(import.meta.dirname, "main.ts");
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", main, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * Three runs: r1 finished (4 workers, 31 nodes in 150 s, 225 s of programs), r2 running (2 nodes, the latest
 * 40 s after its start, 10 s of programs), r3 running without nodes.
 */
async function fixture(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), "openmle-runs-list-")), "ws");
  const ws = await openWorkspace(dir);
  const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const at = (s: number) => new Date(t0 + 1000 * s);
  await ws.append("tasks", [{ task_id: "houses", name: "houses", metric: "rmse", higher_is_better: false }]);
  await ws.append("runs", [
    { run_id: "r1", task_id: "houses", harness: "openmle", policy: "grammar", seed: 1, status: "finished", config: JSON.stringify({ workers: 4 }), started_at: at(0), ended_at: at(150) },
    { run_id: "r2", task_id: "houses", harness: "aide", policy: "grammar", seed: 2, status: "running", config: JSON.stringify({ workers: 1 }), started_at: at(200) },
    { run_id: "r3", task_id: "houses", harness: "mcts", policy: "grammar", seed: 3, status: "running", started_at: at(300) },
  ]);
  const r1 = Array.from({ length: 31 }, (_, i) => ({ run_id: "r1", node_id: `n${String(i).padStart(4, "0")}`, step: i, status: "success", valid_score: 3 + i / 100, execution_id: `r1-${i}`, created_at: at(4 * i + 5) }));
  await ws.append("nodes", [
    ...r1,
    { run_id: "r2", node_id: "n0000", step: 0, status: "success", valid_score: 4, execution_id: "r2-0", created_at: at(220) },
    { run_id: "r2", node_id: "n0001", step: 1, status: "runtime_error", valid_score: null, execution_id: "r2-1", created_at: at(240) },
  ]);
  // r1: 30 programs of 7.5 s = 225 s; 4 workers × 150 s = 600 lane-seconds → 37.5 % in programs.
  await ws.append("executions", [
    ...r1.map((n, i) => ({ execution_id: n.execution_id, run_id: "r1", node_id: n.node_id, wall_s: i < 30 ? 7.5 : 0 })),
    { execution_id: "r2-0", run_id: "r2", node_id: "n0000", wall_s: 6 },
    { execution_id: "r2-1", run_id: "r2", node_id: "n0001", wall_s: 4 },
  ]);
  ws.close();
  return dir;
}

describe("openmle runs list: throughput columns", () => {
  let dir: string;
  beforeAll(async () => { dir = await fixture(); });

  it("shows wall time, nodes per minute and the programs / kit split per run; never NaN", () => {
    const r = cli("runs", "list", "--workspace", dir);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^run\s+task\s+harness\s+policy\s+seed\s+nodes\s+best\s+status\s+wall\s+nodes\/min\s+programs \/ kit$/);
    // r1: 31 nodes / 2.5 min = 12.4/min; 225 of 600 lane-seconds → 37.5 % in programs, shown 38 % / 62 % (they add up to 100).
    expect(lines[2]).toMatch(/^r1\s+houses\s+openmle\s+grammar\s+1\s+31\/31 valid\s+3\s+finished\s+2\.5 min\s+12\.4\s+38% \/ 62%$/);
    // r2 (running): 200 s → its latest node at 240 s = 40 s; 2 nodes → 3/min; 10 of 40 s → 25 % / 75 %.
    expect(lines[3]).toMatch(/^r2\s+houses\s+aide\s+grammar\s+2\s+1\/2 valid\s+4\s+running\s+40 s\s+3\s+25% \/ 75%$/);
    // r3: running without nodes: no wall time yet.
    expect(lines[4]).toMatch(/^r3\s+houses\s+mcts\s+grammar\s+3\s+0\/0 valid\s+—\s+running\s+—\s+—\s+— \/ —$/);
    expect(r.out).not.toMatch(/NaN|undefined|null/);
  });

  it("--json: the figures whole, snake_case", () => {
    const rows = JSON.parse(cli("runs", "list", "--workspace", dir, "--json").out) as Record<string, unknown>[];
    expect(rows[0]).toMatchObject({ run_id: "r1", nodes: 31, wall_s: 150, workers: 4, nodes_per_min: 12.4, program_share: 0.375, kit_share: 0.625 });
    expect(rows[1]).toMatchObject({ run_id: "r2", wall_s: 40, workers: 1, nodes_per_min: 3, program_share: 0.25 });
    expect(rows[2]).toMatchObject({ run_id: "r3", wall_s: null, nodes_per_min: null, program_share: null, kit_share: null });
  });
});
