import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { loadRunStats, runStatsFrames } from "./run-stats.js";
import { bestScoreCurve } from "./trajectory-curve.js";
import { GainShareConfig, gainShare } from "./trajectory-gain-share.js";
import { championLineage, championOf } from "./trajectory-lineage.js";
import { nodeGains, type TrajectoryNode, type TrajectoryRun } from "./trajectory-node.js";
import { operatorStats } from "./trajectory-operators.js";

// A hand-built tree of a lower-is-better task (RMSE), 8 steps:
//   s0 n0000 draft 5.0 · s1 n0001 draft 4.0 · s2 n0002 improve(n0001) 3.5 · s3 n0003 improve(n0000) failed
//   s4 n0004 debug(n0003) 3.8 · s5 n0005 crossover(n0002, n0000) 3.0 · s6 n0006 improve(n0004) 3.9
//   s7 n0007 improve(n0005) 2.75
// Records: s0 (first, gain 0), s1 −1.0, s2 −0.5, s5 −0.5, s7 −0.25: G = 2.25.
const tree: [string, string, string[], number | null][] = [
  ["n0000", "draft", [], 5.0],
  ["n0001", "draft", [], 4.0],
  ["n0002", "improve", ["n0001"], 3.5],
  ["n0003", "improve", ["n0000"], null],
  ["n0004", "debug", ["n0003"], 3.8],
  ["n0005", "crossover", ["n0002", "n0000"], 3.0],
  ["n0006", "improve", ["n0004"], 3.9],
  ["n0007", "improve", ["n0005"], 2.75],
];
const nodes = (sign: number): TrajectoryNode[] =>
  tree.map(([node_id, operator, parents, s], step) => ({
    node_id, step, operator, parents, status: s === null ? "runtime_error" : "success", valid_score: s === null ? null : sign * s,
  }));
const run = (o: Partial<TrajectoryRun> = {}, sign = 1): TrajectoryRun => ({
  run_id: "r1", task_id: "t", harness: "openmle", higher_is_better: sign < 0, step_budget: 8, champion_node_id: "n0007",
  nodes: nodes(sign), ...o,
});
// The same tree as a higher-is-better task (scores negated) must give the same gains.
const directions = [{ dir: "lower is better", sign: 1 }, { dir: "higher is better", sign: -1 }];

describe.each(directions)("trajectory analysis, $dir", ({ sign }) => {
  it("node gains: best valid parent, gain in the task's direction, beat-parent defined only with a valid parent", () => {
    const g = nodeGains(run({}, sign));
    const pick = (id: string) => g.find((n) => n.node_id === id)!;
    expect(pick("n0000")).toMatchObject({ best_parent_id: null, gain: null, beat_parent: null });
    expect(pick("n0002")).toMatchObject({ best_parent_id: "n0001", gain: 0.5, beat_parent: true });
    expect(pick("n0003")).toMatchObject({ valid: false, best_parent_id: "n0000", gain: null, beat_parent: false });
    expect(pick("n0004")).toMatchObject({ best_parent_id: null, gain: null, beat_parent: null }); // buggy parent
    expect(pick("n0005")).toMatchObject({ best_parent_id: "n0002", gain: 0.5, beat_parent: true }); // the better parent
    expect(pick("n0006").gain).toBeCloseTo(-0.1, 12);
    expect(pick("n0006").beat_parent).toBe(false);
  });

  it("per operator: nodes, valid rate, beat-parent rate, mean and total gain", () => {
    const rows = operatorStats(run({}, sign));
    expect(rows.map((r) => r.operator)).toEqual(["draft", "improve", "debug", "crossover"]);
    expect(rows[0]).toEqual({
      operator: "draft", nodes: 2, valid: 2, valid_rate: 1, with_valid_parent: 0, beat_parent: 0, beat_parent_rate: null,
      gains: 0, mean_gain: null, total_gain: null,
    });
    // improve: n0002 +0.5, n0003 failed, n0006 −0.1, n0007 +0.25.
    expect(rows[1]).toMatchObject({ nodes: 4, valid: 3, valid_rate: 0.75, with_valid_parent: 4, beat_parent: 2, beat_parent_rate: 0.5, gains: 3 });
    expect(rows[1]!.total_gain).toBeCloseTo(0.65, 12);
    expect(rows[1]!.mean_gain).toBeCloseTo(0.65 / 3, 12);
    expect(rows[2]).toMatchObject({ nodes: 1, valid_rate: 1, with_valid_parent: 0, beat_parent_rate: null, mean_gain: null });
    expect(rows[3]).toMatchObject({ nodes: 1, beat_parent_rate: 1, mean_gain: 0.5, total_gain: 0.5 });
  });

  it("best-score curve: best so far in the metric's own units, records and their gains", () => {
    const c = bestScoreCurve(run({}, sign));
    expect(c.map((p) => p.best)).toEqual([5, 4, 3.5, 3.5, 3.5, 3, 3, 2.75].map((x) => sign * x));
    expect(c.map((p) => p.record)).toEqual([true, true, true, false, false, true, false, true]);
    expect(c.map((p) => p.gain)).toEqual([0, 1, 0.5, 0, 0, 0.5, 0, 0.25]);
    expect(c.map((p) => p.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it.each([
    { champion: "n0007", path: ["n0001", "n0002", "n0005", "n0007"], ops: ["draft", "improve", "crossover", "improve"], gains: [null, 0.5, 0.5, 0.25] },
    // Through a Debug: n0004's parent failed, so the path follows its first parent.
    { champion: "n0006", path: ["n0000", "n0003", "n0004", "n0006"], ops: ["draft", "improve", "debug", "improve"], gains: [null, null, null, -0.1] },
    { champion: null, path: ["n0001", "n0002", "n0005", "n0007"], ops: ["draft", "improve", "crossover", "improve"], gains: [null, 0.5, 0.5, 0.25] },
  ])("champion lineage to $champion", ({ champion, path, ops, gains }) => {
    const l = championLineage(run({ champion_node_id: champion }, sign));
    expect(l.map((s) => s.node_id)).toEqual(path);
    expect(l.map((s) => s.operator)).toEqual(ops);
    l.forEach((s, i) => (gains[i] === null ? expect(s.gain).toBeNull() : expect(s.gain).toBeCloseTo(gains[i]!, 12)));
    expect(l.map((s) => s.parent_id)).toEqual([null, ...path.slice(0, -1)]);
    expect(l[0]!.step).toBe(Number(path[0]!.slice(1)));
  });

  it.each([
    // late from step 4: early = draft 1.0 + improve 0.5, late = crossover 0.5 + improve 0.25 (of 2.25).
    { cfg: {}, budget: 8, from: 4, late: 0.75 / 2.25, shares: { "draft/early": 1 / 2.25, "improve/early": 0.5 / 2.25, "crossover/late": 0.5 / 2.25, "improve/late": 0.25 / 2.25 } },
    { cfg: { lateFrom: 0.75 }, budget: 8, from: 6, late: 0.25 / 2.25, shares: { "crossover/early": 0.5 / 2.25 } },
    { cfg: { lateFrom: 0 }, budget: 8, from: 0, late: 1.25 / 2.25, shares: { "draft/late": 1 / 2.25 } },
    { cfg: { lateFrom: 1 }, budget: 8, from: 8, late: 0, shares: { "improve/late": 0 } },
    // A budget of 20 steps of which the run made 8: all of it is early.
    { cfg: {}, budget: 20, from: 10, late: 0, shares: { "improve/early": 0.75 / 2.25 } },
  ])("gain share by operator × phase, lateFrom $cfg.lateFrom, budget $budget", ({ cfg, budget, from, late, shares }) => {
    const g = gainShare(run({ step_budget: budget }, sign), cfg);
    expect(g).toMatchObject({ step_budget: budget, late_from_step: from });
    expect(g.total_gain).toBeCloseTo(2.25, 12);
    expect(g.late_improve_crossover_share).toBeCloseTo(late, 12);
    expect(g.improve_crossover_share).toBeCloseTo(1.25 / 2.25, 12);
    for (const [k, v] of Object.entries(shares))
      expect(g.rows.find((r) => `${r.operator}/${r.phase}` === k)!.share).toBeCloseTo(v, 12);
    expect(g.rows.reduce((a, r) => a + r.share!, 0)).toBeCloseTo(1, 12);
  });
});

describe("trajectory analysis edge cases", () => {
  it("without a step budget the split uses the steps made (last step + 1)", () => {
    expect(gainShare(run({ step_budget: null }))).toMatchObject({ step_budget: 8, late_from_step: 4 });
  });
  it("a run where nothing scored: no best, no records, no shares, no champion", () => {
    const r = run({ champion_node_id: null, nodes: nodes(1).map((n) => ({ ...n, status: "timeout" })) });
    expect(bestScoreCurve(r).every((p) => p.best === null && !p.record)).toBe(true);
    expect(gainShare(r)).toMatchObject({ total_gain: 0, late_improve_crossover_share: null, improve_crossover_share: null });
    expect(championOf(r)).toBeNull();
    expect(championLineage(r)).toEqual([]);
    expect(operatorStats(r)[1]).toMatchObject({ valid_rate: 0, beat_parent_rate: null });
  });
  it("the phase setting is strict and bounded", () => {
    expect(GainShareConfig.parse({})).toEqual({ lateFrom: 0.5 });
    expect(() => GainShareConfig.parse({ lateFrom: 1.5 })).toThrow();
    expect(() => GainShareConfig.parse({ latefrom: 0.5 })).toThrow(/latefrom/);
  });
});

describe("loadRunStats over a real workspace", () => {
  it("reads the champion from runs.champion_node_id, the budget from the config, steps 0-based; frames for notebooks", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-traj-")), "ws"));
    try {
      await ws.append("tasks", [{ task_id: "t", name: "t", metric: "rmse", higher_is_better: false }]);
      await ws.append("runs", [{
        run_id: "r1", task_id: "t", harness: "openmle", policy: "grammar", seed: 1, status: "finished",
        config: JSON.stringify({ steps: 8 }), summary: JSON.stringify({ champion: { nodeId: "n0006" } }), champion_node_id: "n0006",
      }]);
      await ws.append("nodes", nodes(1).map((n) => ({ run_id: "r1", ...n, parents: [...n.parents] })));
      const [s] = await loadRunStats(ws);
      expect(s).toMatchObject({ run_id: "r1", higher_is_better: false, nodes: 8, champion_node_id: "n0006" });
      expect(s!.lineage.map((l) => l.node_id)).toEqual(["n0000", "n0003", "n0004", "n0006"]);
      expect(s!.gain_share).toMatchObject({ step_budget: 8, late_from_step: 4 });
      expect(s!.curve[9 - 2]!.node_id).toBe("n0007");
      const f = await runStatsFrames([s!]);
      expect(f.operators.shape).toEqual([4, 12]);
      expect(f.gainShare.shape[0]).toBe(8);
      expect(f.summary.column("late_improve_crossover_share").values[0]).toBeCloseTo(0.75 / 2.25, 12);
    } finally {
      ws.close();
    }
  });
});
