import type { EvoNode } from "../../../evo/index.js";
import { buildCard } from "../../../evo/index.js";
import { storedTaskDir } from "../../../gym/index.js";
import type { TaskPackage } from "../../../gym/types.js";
import { finishRun, startRun, type Workspace } from "../../../store/index.js";

/** Store a hand-written tree as a finished run (runs, nodes, cards), the way evolve writes it. */
export async function writeStoredRun(ws: Workspace, runId: string, task: TaskPackage, nodes: readonly EvoNode[]): Promise<void> {
  await startRun(ws, { runId, taskId: task.meta.id, harness: "openmle", policy: "grammar", seed: 0, config: { steps: nodes.length } });
  if ((await storedTaskDir(ws, task.meta.id)) === null) {
    await ws.append("tasks", [{ task_id: task.meta.id, name: task.meta.name, modality: task.meta.modality, metric: task.meta.metric, higher_is_better: task.meta.higherIsBetter, dir: task.dir }]);
  }
  for (const [i, n] of nodes.entries()) {
    await ws.append("nodes", [{
      run_id: runId, node_id: n.nodeId, island: 0, step: n.step, generation: 0, operator: n.operator, parents: n.parents, status: n.status,
      error_signature: n.errorSignature, valid_score: n.validScore, test_score: n.testScore, fitness: n.fitness, admitted: n.admitted,
      plan: n.plan, code: n.code, execution_id: n.executionId,
    }]);
    await ws.append("cards", [buildCard(runId, n, nodes.slice(0, i)) as unknown as Record<string, unknown>]);
  }
  await finishRun(ws, runId, "finished", {});
}
