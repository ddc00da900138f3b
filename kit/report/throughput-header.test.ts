import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { openWorkspace } from "../store/index.js";
import { writeReport } from "./index.js";

/**
 * Two runs of hand-built nodes in a real workspace: "fast" finished, 2 workers, 12 nodes in 90 s with 9 s
 * programs; "live" still running, 2 nodes, the latest 30 s after its start, 6 s programs each.
 */
async function workspace(dir: string): Promise<void> {
  const ws = await openWorkspace(dir);
  const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const at = (s: number) => new Date(t0 + 1000 * s);
  try {
    await ws.append("tasks", [{ task_id: "cars", name: "Car fuel economy", modality: "tabular", metric: "rmse", higher_is_better: false }]);
    await ws.append("runs", [
      { run_id: "fast", task_id: "cars", harness: "openmle", policy: "grammar", seed: 1, status: "finished", config: JSON.stringify({ workers: 2 }), started_at: at(0), ended_at: at(90) },
      { run_id: "live", task_id: "cars", harness: "aide", policy: "grammar", seed: 2, status: "running", config: JSON.stringify({ workers: 1 }), started_at: at(100) },
    ]);
    const node = (run: string, i: number, s: number) => ({
      run_id: run, node_id: `n${String(i).padStart(4, "0")}`, island: 0, step: i, generation: 0, operator: "draft", parents: [], status: "success",
      valid_score: 3 - i / 100, fitness: -(3 - i / 100), admitted: true, plan: "p", code: `print(${i})`, execution_id: `${run}-${i}`, created_at: at(s),
    });
    const fast = Array.from({ length: 12 }, (_, i) => node("fast", i, 7 * i + 5));
    const live = [node("live", 0, 115), node("live", 1, 130)];
    await ws.append("nodes", [...fast, ...live]);
    await ws.append("executions", [
      ...fast.map((n) => ({ execution_id: n.execution_id, run_id: "fast", node_id: n.node_id, status: "success", wall_s: 9 })),
      ...live.map((n) => ({ execution_id: n.execution_id, run_id: "live", node_id: n.node_id, status: "success", wall_s: 6 })),
    ]);
  } finally {
    ws.close();
  }
}

describe("the report header of every run shows its throughput", () => {
  test("nodes/min, nodes in wall time, workers and the programs / kit split; the runs table has nodes/min", async () => {
    const root = mkdtempSync(join(tmpdir(), "report-throughput-"));
    await workspace(join(root, "ws"));
    const r = await writeReport(join(root, "ws"), join(root, "out"), { png: false, maxTrees: 2 });
    const html = readFileSync(r.html, "utf8");
    const header = (run: string) => {
      const from = html.indexOf(`<section class="openmle-result" data-run="${run}"`);
      return html.slice(from, html.indexOf("</table>", from));
    };
    // fast: 12 nodes / 1.5 min = 8 nodes/min; 108 s of programs in 2 × 90 lane-seconds → 60 % / 40 %.
    expect(header("fast")).toContain(
      "<tr><th>throughput</th><td><b>8 nodes/min</b> <span class=\"openmle-muted\">(12 nodes in 90 s of wall time, 2 workers)</span> · " +
        "60% in programs, 40% kit <span class=\"openmle-muted\">(share of the workers' wall time)</span></td></tr>",
    );
    // live (running): 100 s → its latest node at 130 s = 30 s; 2 nodes → 4/min; 12 of 30 s → 40 % / 60 %.
    expect(header("live")).toContain("<b>4 nodes/min</b> <span class=\"openmle-muted\">(2 nodes in 30 s of wall time up to its latest node, 1 worker)</span> · 40% in programs, 60% kit");
    expect(header("fast")).toMatch(/<th>budget used<\/th><td>12 of 20 steps · sandbox 108 s · wall 90 s/);
    // The runs table (more than one run) has a nodes/min column; summary.json keeps the figures whole.
    expect(html).toMatch(/<th>nodes\/min<\/th>/);
    const summary = JSON.parse(readFileSync(r.summary, "utf8")) as { runs: { runId: string; throughput: Record<string, unknown> }[] };
    expect(summary.runs.find((x) => x.runId === "fast")!.throughput).toMatchObject({ nodes: 12, workers: 2, wallS: 90, nodesPerMin: 8, programShare: 0.6 });
    expect(html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, "")).not.toMatch(/NaN|undefined/);
  });
});
