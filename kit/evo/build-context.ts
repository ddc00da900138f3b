import type { LanguageModel } from "../llm/spec.js";
import type { OperatorContext } from "../policy/types.js";
import type { Workspace } from "../store/index.js";
import { airaContext, airaMemoryNodes } from "./aira-memory.js";
import { experienceBoard } from "./board-store.js";
import { shownBoard } from "./board-lines.js";
import type { EvolveConfig } from "./config.js";
import {
  conditionedContext,
  exploredIdeaNodes,
  historyContext,
  nodeUtilities,
  selectContext,
  selectedIds,
} from "./context.js";
import { synthesizeMemory } from "./memory-synthesis.js";
import { selectionWeights } from "./three-factor-selection.js";
import type { Action, EvoNode } from "./types.js";

/**
 * The context an operator gets.
 * - OpenMLE-Evo (operator-conditioned, memory synthesised only for the selected nodes): Draft the previously
 *   explored ideas; Improve/Crossover the board (board-lines.ts), ancestors and siblings by three-factor
 *   utility; Debug the related nodes (same error signature first, then the most recent).
 * - AIRA-Evo: the good nodes (plan, metric, analysis) for Draft/Improve/Crossover, the failing node's
 *   ancestors for Debug (aira-memory.ts; with a memory model the analyses are its summaries, written after evaluation).
 * - AIDE and MCTS: the parents and a history of all nodes (the same block for every operator).
 * Every harness assembles what it shows as data (`shown`) and renders `memory` from it (renderShown).
 */
export async function buildContext(
  ws: Workspace,
  runId: string,
  cfg: EvolveConfig,
  action: Action,
  nodes: readonly EvoNode[],
  budget: OperatorContext["budget"],
  opts: { model?: LanguageModel; priors?: string },
): Promise<OperatorContext> {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const parents = action.parents.map((p) => byId.get(p)!).filter(Boolean);
  const priors = opts.priors || undefined;
  if (cfg.harness === "openmle") {
    const utilities = nodeUtilities(nodes, selectionWeights(cfg.selection), cfg.selection.normalisation);
    const sel = selectContext(action.operator, parents, nodes, cfg.context, utilities);
    const summaries = await synthesizeMemory(ws, runId, selectedIds(sel), {
      model: opts.model,
      operator: action.operator,
    });
    const ideas = action.operator === "draft" ? exploredIdeaNodes(nodes, cfg.context.draftIdeas) : undefined;
    const board =
      action.operator === "improve" || action.operator === "crossover"
        ? shownBoard(await experienceBoard(ws, runId, boardScope(nodes)), cfg.context.trendWindow)
        : undefined;
    return conditionedContext(sel, summaries, budget, { priors, ideas, board, nodes });
  }
  if (cfg.harness === "aira-evo") {
    const shown = [...parents, ...airaMemoryNodes(action.operator, parents, nodes)].map((n) => n.nodeId);
    const summaries = opts.model
      ? await synthesizeMemory(ws, runId, [...new Set(shown)], { model: opts.model })
      : new Map<string, string>();
    return airaContext(action.operator, parents, nodes, summaries, budget, priors);
  }
  const summaries = await synthesizeMemory(
    ws,
    runId,
    nodes.map((n) => n.nodeId),
  );
  return historyContext(parents, nodes, summaries, budget, priors);
}

/** The board covers the nodes the step knows: those up to the latest of `nodes` (a rebuilt context sees no later node).
 */
const boardScope = (nodes: readonly EvoNode[]) => 1 + nodes.reduce((m, n) => Math.max(m, n.step), -1);

/** Characters of a context as a policy would see it (memory + shown programs and plans). */
export function contextChars(ctx: OperatorContext): number {
  const views = [...ctx.parents, ...(ctx.ancestors ?? []), ...(ctx.siblings ?? []), ...(ctx.failures ?? [])];
  return (
    (ctx.memory?.length ?? 0) +
    views.reduce((s, v) => s + v.code.length + v.plan.length + (v.traceback?.length ?? 0), 0)
  );
}
