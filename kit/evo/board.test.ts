import { describe, expect, it } from "vitest";
import { renderBoard } from "./board.js";
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
