import type { LanguageModel } from "../llm/spec.js";
import type { OperatorContext } from "../policy/types.js";
import type { Workspace } from "../store/index.js";
import type { EvolveConfig } from "./config.js";
import { conditionedContext, historyContext, selectContext, selectedIds } from "./context.js";
import { synthesizeMemory } from "./memory-synthesis.js";
import type { Action, EvoNode } from "./types.js";

/**
 * The context an operator gets. OpenMLE-Evo: operator-conditioned, memory synthesised only for
 * the selected nodes. AIRA-Evo, AIDE and MCTS: the parents and a history of all nodes (the same
 * block for every operator; AIRA-Evo's summaries are written for every node after evaluation).
 */
export async function buildContext(
  ws: Workspace, runId: string, cfg: EvolveConfig, action: Action, nodes: readonly EvoNode[],
  budget: OperatorContext["budget"], opts: { model?: LanguageModel; priors?: string },
): Promise<OperatorContext> {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const parents = action.parents.map((p) => byId.get(p)!).filter(Boolean);
  if (cfg.harness === "openmle") {
    const sel = selectContext(action.operator, parents, nodes, cfg.context);
    const summaries = await synthesizeMemory(ws, runId, selectedIds(sel), { model: opts.model, operator: action.operator });
    return conditionedContext(sel, summaries, budget, opts.priors || undefined);
  }
  const summaries = await synthesizeMemory(ws, runId, nodes.map((n) => n.nodeId), { model: cfg.harness === "aira-evo" ? opts.model : undefined });
  return historyContext(parents, nodes, summaries, budget, opts.priors || undefined);
}

/** Characters of a context as a policy would see it (memory + shown programs and plans). */
export function contextChars(ctx: OperatorContext): number {
  const views = [...ctx.parents, ...(ctx.ancestors ?? []), ...(ctx.siblings ?? []), ...(ctx.failures ?? [])];
  return (ctx.memory?.length ?? 0) + views.reduce((s, v) => s + v.code.length + v.plan.length + (v.traceback?.length ?? 0), 0);
}
