import { describe, expect, it } from "vitest";
import { renderBoard } from "./board.js";
import { boardLines, shownBoard } from "./board-lines.js";
import { experienceBoard } from "./board-store.js";
import { distillPriors } from "./priors.js";
import { seededWorkspace } from "./test-helpers/board-tree.js";

const seeded = seededWorkspace;

describe("experience board", () => {
  it("per-family stats, best per family, unexplored, repeated failures, trend and graph", async () => {
    const ws = await seeded();
    try {
      const b = await experienceBoard(ws, "r1");
      expect(b.familyStats.map((f) => [f.method_family, f.nodes, f.successes, f.best_score])).toEqual([
        ["ensemble", 1, 1, 0.85], ["xgboost", 1, 1, 0.8], ["sklearn", 3, 2, 0.7], ["lightgbm", 1, 0, null],
      ]);
      expect(b.bestPerFamily.map((f) => [f.method_family, f.node_id])).toEqual([["ensemble", "n5"], ["xgboost", "n1"], ["sklearn", "n3"]]);
      expect(b.unexplored).toEqual([
        { method_family: "lightgbm", reason: "only failures" },
        { method_family: "catboost", reason: "never tried" }, { method_family: "cv", reason: "never tried" },
        { method_family: "neural_net", reason: "never tried" }, { method_family: "nlp", reason: "never tried" },
        { method_family: "transformers", reason: "never tried" },
      ]);
      expect(b.repeatedFailures).toEqual([{ error_signature: "import_error", failures: 2, nodes: ["n2", "n4"] }]);
      expect(b.scoreTrend.map((t) => t.best_so_far)).toEqual([0.6, 0.8, 0.8, 0.8, 0.8, 0.85]);
      expect(b.parentGraph).toEqual([
        { parent: "n0", child: "n3", operator: "improve" }, { parent: "n2", child: "n4", operator: "debug" },
        { parent: "n1", child: "n5", operator: "crossover" }, { parent: "n3", child: "n5", operator: "crossover" },
      ]);
      expect(renderBoard(b)).toContain("repeated failures: import_error ×2");
    } finally {
      ws.close();
    }
  });

  it("the board as data (ShownBoard): the fields its lines are rendered from", async () => {
    const ws = await seeded();
    try {
      const b = await experienceBoard(ws, "r1");
      const s = shownBoard(b, 1);
      expect(s.currentBest).toEqual({ nodeId: "n5", methodFamily: "ensemble", score: 0.85 });
      expect(s.runnerUp).toEqual({ nodeId: "n1", methodFamily: "xgboost", score: 0.8 });
      expect(s.families).toEqual([
        { methodFamily: "ensemble", tried: 1, succeeded: 1, best: 0.85 },
        { methodFamily: "xgboost", tried: 1, succeeded: 1, best: 0.8 },
        { methodFamily: "sklearn", tried: 3, succeeded: 2, best: 0.7 },
        { methodFamily: "lightgbm", tried: 1, succeeded: 0, best: null },
      ]);
      expect(s.underExplored).toEqual(["ensemble", "xgboost"]);
      expect(s.repeatedErrors).toEqual([{ signature: "import_error", failures: 2, nodes: ["n2", "n4"] }]);
      // The last window (1) of the delta trend: n5 0.85 − max(0.8, 0.7).
      expect(s.trend.map((t) => [t.nodeId, t.operator])).toEqual([["n5", "crossover"]]);
      expect(s.trend[0]!.delta).toBeCloseTo(0.05, 12);
      expect(shownBoard(b).trend.map((t) => t.nodeId)).toEqual(["n3", "n5"]);
      expect(s.lines).toEqual(boardLines(s));
      // One family only: no runner-up, no complementarity hint; an empty board.
      const one = boardLines({ ...s, runnerUp: null });
      expect(one.at(-1)).toMatch(/^Score-delta trend/);
      const empty = shownBoard({ ...b, familyStats: [], bestPerFamily: [], repeatedFailures: [], deltaTrend: [] });
      expect(empty.lines).toEqual([
        "Current best: none yet", "Families (tried, succeeded, best validation): none",
        "Under-explored families (at most 2 tries, not all failed): none", "Repeated errors: none",
        "Score-delta trend: no scored Improve/Crossover child yet",
      ]);
    } finally {
      ws.close();
    }
  });

  it("cross-task priors come from other tasks only", async () => {
    const ws = await seeded("r1", "t1");
    try {
      expect(await distillPriors(ws, "t1")).toBe("");
      const p = await distillPriors(ws, "t2");
      expect(p.split("\n")[0]).toMatch(/^- ensemble: 1 nodes on 1 other task\(s\), success 100%, mean reward 1\.00, 1 champion cards$/);
    } finally {
      ws.close();
    }
  });
});
