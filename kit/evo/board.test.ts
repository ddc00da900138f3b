import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { experienceBoard, renderBoard } from "./board.js";
import { buildCard } from "./experience-card.js";
import { distillPriors } from "./priors.js";
import { mkNode } from "./test-helpers/make-node.js";
import type { EvoNode } from "./types.js";

// Hand-written run: n0 sklearn 0.6, n1 xgboost 0.8, n2 sklearn fails (import_error), n3 improve n0 → 0.7,
// n4 debug n2 fails again (import_error), n5 crossover n1+n3 → ensemble 0.85.
const N: EvoNode[] = [
  mkNode({ nodeId: "n0", validScore: 0.6 }),
  mkNode({ nodeId: "n1", validScore: 0.8, methodFamily: "xgboost" }),
  mkNode({ nodeId: "n2", status: "runtime_error", errorSignature: "import_error" }),
  mkNode({ nodeId: "n3", operator: "improve", parents: ["n0"], validScore: 0.7 }),
  mkNode({ nodeId: "n4", operator: "debug", parents: ["n2"], status: "runtime_error", errorSignature: "import_error", methodFamily: "lightgbm" }),
  mkNode({ nodeId: "n5", operator: "crossover", parents: ["n1", "n3"], validScore: 0.85, methodFamily: "ensemble" }),
];

async function seeded(runId = "r1", taskId = "t1") {
  const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "evo-board-")), "ws"));
  await ws.append("runs", [{ run_id: runId, task_id: taskId, seed: 0 }]);
  await ws.append("nodes", N.map((n) => ({ run_id: runId, node_id: n.nodeId, step: n.step, operator: n.operator, parents: n.parents, status: n.status, valid_score: n.validScore, fitness: n.fitness })));
  await ws.append("cards", N.map((n, i) => buildCard(runId, n, N.slice(0, i)) as unknown as Record<string, unknown>));
  return ws;
}

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
