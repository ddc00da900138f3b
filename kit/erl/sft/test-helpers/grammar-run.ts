import { buildCard, buildContext, EvolveConfig, type EvoNode } from "../../../evo/index.js";
import { mkNode } from "../../../evo/test-helpers/make-node.js";
import { storedTaskDir } from "../../../gym/index.js";
import type { TaskPackage } from "../../../gym/types.js";
import { createGrammarPolicy, type GrammarParams } from "../../../policy/grammar/index.js";
import { finishRun, startRun, type Workspace } from "../../../store/index.js";
import { createRng } from "../../../util/index.js";

/**
 * Store a finished run whose programs the grammar policy wrote (not executed; scores made up), the way evolve
 * builds each step's context: drafts n0 and n1, n2 improving n0, and n3 a program without a grammar trace.
 */
export async function writeGrammarRun(ws: Workspace, runId: string, task: TaskPackage, params: GrammarParams) {
  const steps = 4;
  await startRun(ws, { runId, taskId: task.meta.id, harness: "openmle", policy: "grammar", seed: 0, config: { steps } });
  if ((await storedTaskDir(ws, task.meta.id)) === null)
    await ws.append("tasks", [{ task_id: task.meta.id, name: task.meta.name, modality: task.meta.modality, metric: task.meta.metric, higher_is_better: task.meta.higherIsBetter, dir: task.dir }]);
  const cfg = EvolveConfig.parse({ steps });
  const policy = createGrammarPolicy(params);
  const rng = createRng(7);
  const nodes: EvoNode[] = [];
  const plan: [string, "draft" | "improve", string[]][] = [["n0", "draft", []], ["n1", "draft", []], ["n2", "improve", ["n0"]]];
  for (const [i, [nodeId, operator, parents]] of plan.entries()) {
    const budget = { remainingSteps: steps - i, remainingTimeS: Infinity, perRunTimeLimitS: cfg.perRunTimeoutS };
    const ctx = await buildContext(ws, runId, cfg, { operator, parents, island: 0 }, nodes, budget, {});
    const out = await policy.propose(task, operator, ctx, rng);
    nodes.push(mkNode({ nodeId, step: i, operator, parents, code: out.code, plan: out.plan, spec: out.spec, validScore: 0.9 + i / 100 }));
    await append(ws, runId, nodes);
  }
  nodes.push(mkNode({ nodeId: "n3", step: 3, code: "print('written by hand')\n" }));
  await append(ws, runId, nodes);
  await finishRun(ws, runId, "finished", {});
}

async function append(ws: Workspace, runId: string, nodes: readonly EvoNode[]) {
  const n = nodes.at(-1)!;
  await ws.append("nodes", [{
    run_id: runId, node_id: n.nodeId, island: 0, step: n.step, generation: 0, operator: n.operator, parents: n.parents, status: n.status,
    error_signature: n.errorSignature, valid_score: n.validScore, test_score: n.testScore, fitness: n.fitness, admitted: n.admitted,
    plan: n.plan, code: n.code, spec: n.spec ?? null, execution_id: n.executionId,
  }]);
  await ws.append("cards", [buildCard(runId, n, nodes.slice(0, -1)) as unknown as Record<string, unknown>]);
}
