import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { loadThroughput } from "./load-throughput.js";
import { formatNodesPerMin, formatShare, formatSplit, formatTimeSplit, throughput, type ThroughputInput } from "./throughput.js";

const base: ThroughputInput = { nodes: 0, startedMs: 0, endedMs: null, lastNodeMs: null, programS: 0, workers: 1 };

describe("throughput: nodes per minute and the share of time in programs", () => {
  it.each([
    // 30 nodes in 150 s = 2.5 min → 12/min; 90 s of programs in 150 s of one lane → 60 %.
    { name: "finished run", r: { nodes: 30, endedMs: 150_000, programS: 90 }, wall: 150, npm: 12, p: 0.6, until: "run-end" },
    // 4 workers: 100 s of wall offer 400 lane-seconds; 300 s of programs → 75 %; 40 nodes / (100/60) = 24/min.
    { name: "parallel workers", r: { nodes: 40, endedMs: 100_000, programS: 300, workers: 4 }, wall: 100, npm: 24, p: 0.75, until: "run-end" },
    // Running: wall up to its latest node, 90 s; 3 nodes → 2/min; 45 of 90 s → 50 %.
    { name: "running run", r: { nodes: 3, lastNodeMs: 90_000, programS: 45 }, wall: 90, npm: 2, p: 0.5, until: "last-node" },
    // The end wins over the latest node once the run has ended (the tail after the last node counts).
    { name: "ended after its last node", r: { nodes: 6, lastNodeMs: 50_000, endedMs: 60_000, programS: 30 }, wall: 60, npm: 6, p: 0.5, until: "run-end" },
    // Resumed: first start to last end, stopped time included: 30 nodes in 1 h → 0.5/min.
    { name: "resumed run (stopped time counts)", r: { nodes: 30, endedMs: 3_600_000, programS: 720 }, wall: 3600, npm: 0.5, p: 0.2, until: "run-end" },
    { name: "0 nodes, 60 s of wall", r: { nodes: 0, endedMs: 60_000 }, wall: 60, npm: 0, p: 0, until: "run-end" },
    // Program time beyond the lane time (clocks apart): capped to 1, the kit 0.
    { name: "program time capped to the wall", r: { nodes: 1, endedMs: 10_000, programS: 12 }, wall: 10, npm: 6, p: 1, until: "run-end" },
    { name: "workers 0 counts as 1", r: { nodes: 2, endedMs: 60_000, programS: 30, workers: 0 }, wall: 60, npm: 2, p: 0.5, until: "run-end" },
    { name: "workers NaN counts as 1", r: { nodes: 2, endedMs: 60_000, programS: 30, workers: NaN }, wall: 60, npm: 2, p: 0.5, until: "run-end" },
    { name: "program seconds NaN count as 0", r: { nodes: 2, endedMs: 60_000, programS: NaN }, wall: 60, npm: 2, p: 0, until: "run-end" },
  ])("$name", ({ r, wall, npm, p, until }) => {
    const t = throughput({ ...base, ...r });
    expect(t.wallS).toBeCloseTo(wall, 12);
    expect(t.nodesPerMin).toBeCloseTo(npm, 12);
    expect(t.programShare).toBeCloseTo(p, 12);
    expect(t.kitShare).toBeCloseTo(1 - p, 12);
    expect(t.wallUntil).toBe(until);
  });

  it.each([
    { name: "running without nodes: no end yet", r: { nodes: 0 }, wall: null },
    { name: "no start recorded", r: { nodes: 4, startedMs: null, endedMs: 60_000 }, wall: null },
    { name: "ended the moment it started", r: { nodes: 0, startedMs: 5_000, endedMs: 5_000 }, wall: 0 },
    { name: "an end before the start", r: { nodes: 2, startedMs: 10_000, endedMs: 4_000 }, wall: 0 },
  ])("$name: null rates, never NaN", ({ r, wall }) => {
    const t = throughput({ ...base, ...r });
    expect(t).toMatchObject({ wallS: wall, nodesPerMin: null, programShare: null, kitShare: null });
    if (wall === null) expect(t.wallUntil).toBe("none");
    expect(formatNodesPerMin(t.nodesPerMin)).toBe("— nodes/min");
    expect(formatTimeSplit(t)).toBe("— in programs, — kit");
  });

  it.each([
    [12.4, "12.4 nodes/min"], [12, "12.0 nodes/min"], [123.456, "123 nodes/min"], [2.567, "2.57 nodes/min"],
    [0.0532, "0.0532 nodes/min"], [0, "0 nodes/min"], [null, "— nodes/min"], [NaN, "— nodes/min"],
  ])("formatNodesPerMin(%s) = %s", (x, s) => expect(formatNodesPerMin(x)).toBe(s));

  it.each([
    [0.634, "63%"], [0.05, "5.0%"], [0, "0%"], [1, "100%"], [null, "—"],
  ])("formatShare(%s) = %s", (x, s) => expect(formatShare(x)).toBe(s));

  it.each([
    [0.63, "63%", "37%"], [0.375, "38%", "62%"], [0.0504, "5.0%", "95%"], [0.9496, "95%", "5.0%"], [1, "100%", "0%"], [0, "0%", "100%"],
    [null, "—", "—"],
  ])("formatSplit(%s): programs %s, kit %s (adding up to 100)", (p, programs, kit) => {
    expect(formatSplit(p)).toEqual({ programs, kit });
  });

  it("formatTimeSplit names both sides", () => {
    expect(formatTimeSplit({ programShare: 0.63 })).toBe("63% in programs, 37% kit");
  });
});

describe("loadThroughput over a real workspace", () => {
  it("reads runs, nodes, execution records and node timings; a reused record's program time is 0, timed or not", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-throughput-")), "ws"));
    try {
      const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
      const at = (s: number) => new Date(t0 + 1000 * s);
      await ws.append("runs", [
        { run_id: "r1", task_id: "t", harness: "openmle", status: "finished", config: JSON.stringify({ workers: 2 }), started_at: at(0), ended_at: at(120) },
        { run_id: "r2", task_id: "t", harness: "openmle", status: "running", config: JSON.stringify({ steps: 5 }), started_at: at(10) },
        { run_id: "r3", task_id: "t", harness: "openmle", status: "running", started_at: at(20) },
      ]);
      const node = (run: string, id: string, s: number) => ({ run_id: run, node_id: id, step: 0, execution_id: `${run}-${id}`, created_at: at(s) });
      await ws.append("nodes", [node("r1", "n0000", 40), node("r1", "n0001", 80), node("r1", "n0002", 110), node("r2", "n0000", 40),
        // r1's n0003 reuses r2's record and has no timing row: the record is not its own, so 0 s.
        { ...node("r1", "n0003", 115), execution_id: "r2-n0000" }]);
      await ws.append("executions", [
        { execution_id: "r1-n0000", run_id: "r1", node_id: "n0000", wall_s: 30 },
        { execution_id: "r1-n0001", run_id: "r1", node_id: "n0001", wall_s: 66 },
        { execution_id: "r1-n0002", run_id: "r1", node_id: "n0002", wall_s: 50 }, // reused: its timing row says 0
        { execution_id: "r2-n0000", run_id: "r2", node_id: "n0000", wall_s: 15 },
      ]);
      await ws.append("node_timings", [{ run_id: "r1", node_id: "n0002", node_s: 2, program_s: 0 }]);
      const [r1, r2, r3] = await loadThroughput(ws);
      // r1: 4 nodes in 120 s → 2/min; programs 30 + 66 + 0 + 0 = 96 s of 2 × 120 lane-seconds → 40 %.
      expect(r1).toMatchObject({ runId: "r1", status: "finished", nodes: 4, workers: 2, wallUntil: "run-end", programS: 96 });
      expect(r1!.wallS).toBeCloseTo(120, 9);
      expect(r1!.nodesPerMin).toBeCloseTo(2, 9);
      expect(r1!.programShare).toBeCloseTo(0.4, 9);
      // r2 (running): wall from 10 s to its node at 40 s = 30 s; 1 node → 2/min; 15 of 30 s → 50 %; 1 worker.
      expect(r2).toMatchObject({ runId: "r2", nodes: 1, workers: 1, wallUntil: "last-node" });
      expect(r2!.nodesPerMin).toBeCloseTo(2, 9);
      expect(r2!.programShare).toBeCloseTo(0.5, 9);
      // r3: running, no nodes, no config.
      expect(r3).toMatchObject({ runId: "r3", nodes: 0, wallS: null, nodesPerMin: null, programShare: null });
      expect((await loadThroughput(ws, ["r2"])).map((r) => r.runId)).toEqual(["r2"]);
    } finally {
      ws.close();
    }
  });
});
