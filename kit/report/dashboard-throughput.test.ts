import { appendFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dashboardState, journalDir, journalReader, liveNodesPerMin, type JournalRecord } from "./index.js";

const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (s: number) => new Date(t0 + 1000 * s).toISOString();
const node = (runId: string, step: number, s: number): JournalRecord => ({
  type: "node", runId, step, nodeId: `n${String(step).padStart(4, "0")}`, operator: "draft", parents: [], status: "success",
  validScore: 1 + step, testScore: null, methodFamily: "linear", plan: "", code: "", stdoutTail: "", traceback: null,
  done: step + 1, total: 10, best: 1 + step, at: at(s),
});
const start = (runId: string, s: number): JournalRecord => ({
  type: "run-start", runId, taskId: "t", harness: "openmle", higherIsBetter: true, steps: 10, resumed: s > 0, at: at(s),
});

describe("the dashboard's nodes per minute, from the live journal", () => {
  it("running: up to the latest node; finished: up to the run-end; a resume clears the end", () => {
    const ws = mkdtempSync(join(tmpdir(), "dash-npm-"));
    mkdirSync(journalDir(ws), { recursive: true });
    const put = (r: JournalRecord) => appendFileSync(join(journalDir(ws), `${r.runId}.jsonl`), `${JSON.stringify(r)}\n`);
    const reader = journalReader(ws);
    // run a: started at 0, nodes at 20 s and 30 s → 2 nodes in 30 s = 4 nodes/min while it runs.
    [start("a", 0), node("a", 0, 20), node("a", 1, 30)].forEach(put);
    let s = dashboardState(reader.read());
    expect(s.runs[0]).toMatchObject({ runId: "a", finished: false, nodesPerMin: 4, nodesPerMinText: "4 nodes/min" });
    // It ends at 40 s: 2 nodes in 40 s = 3 nodes/min.
    put({ type: "run-end", runId: "a", nodes: 2, best: 2, at: at(40) });
    s = dashboardState(reader.read());
    expect(s.runs[0]).toMatchObject({ finished: true, nodesPerMin: 3, nodesPerMinText: "3 nodes/min" });
    // Resumed at 100 s, a third node at 120 s: first start to the latest node, the stopped time included: 3 in 2 min.
    [start("a", 100), node("a", 2, 120)].forEach(put);
    s = dashboardState(reader.read());
    expect(s.runs[0]).toMatchObject({ finished: false, nodesPerMin: 1.5, nodesPerMinText: "1.5 nodes/min" });
    // run b: started, no node yet → no rate, never NaN.
    put(start("b", 0));
    s = dashboardState(reader.read());
    expect(s.runs[1]).toMatchObject({ runId: "b", nodesPerMin: null, nodesPerMinText: "— nodes/min" });
    expect(JSON.stringify(s)).not.toMatch(/NaN/);
  });

  it("a journal without a run-start (a torn file) has no rate", () => {
    expect(liveNodesPerMin({ startedAt: null, endedAt: null, nodes: [node("c", 0, 5) as Extract<JournalRecord, { type: "node" }>] })).toBeNull();
  });
});
