import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWorkspace, type Workspace } from "../../store/index.js";
import { buildCard } from "../experience-card.js";
import type { EvoNode } from "../types.js";
import { mkNode } from "./make-node.js";

/**
 * A hand-written run for board and context tests: n0 sklearn 0.6, n1 xgboost 0.8, n2 sklearn fails
 * (import_error), n3 improve n0 → 0.7, n4 debug n2 fails again (import_error, lightgbm), n5 crossover
 * n1+n3 → ensemble 0.85.
 */
export const BOARD_TREE: EvoNode[] = [
  mkNode({ nodeId: "n0", validScore: 0.6 }),
  mkNode({ nodeId: "n1", validScore: 0.8, methodFamily: "xgboost" }),
  mkNode({ nodeId: "n2", status: "runtime_error", errorSignature: "import_error" }),
  mkNode({ nodeId: "n3", operator: "improve", parents: ["n0"], validScore: 0.7 }),
  mkNode({ nodeId: "n4", operator: "debug", parents: ["n2"], status: "runtime_error", errorSignature: "import_error", methodFamily: "lightgbm" }),
  mkNode({ nodeId: "n5", operator: "crossover", parents: ["n1", "n3"], validScore: 0.85, methodFamily: "ensemble" }),
];

/** BOARD_TREE stored as run `runId` of task `taskId` (nodes and cards) in a fresh temporary workspace. */
export async function seededWorkspace(runId = "r1", taskId = "t1"): Promise<Workspace> {
  const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "evo-board-")), "ws"));
  const N = BOARD_TREE;
  await ws.append("runs", [{ run_id: runId, task_id: taskId, seed: 0 }]);
  await ws.append("nodes", N.map((n) => ({ run_id: runId, node_id: n.nodeId, step: n.step, operator: n.operator, parents: n.parents, status: n.status, valid_score: n.validScore, fitness: n.fitness })));
  await ws.append("cards", N.map((n, i) => buildCard(runId, n, N.slice(0, i)) as unknown as Record<string, unknown>));
  return ws;
}
