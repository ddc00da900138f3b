import type { Operator, OperatorContext } from "../policy/types.js";
import { memoryContext, nearestAncestors } from "./context.js";
import { analyse } from "./experience-card.js";
import { gainOverParents, shownNode } from "./shown-node.js";
import { isGood, type EvoNode } from "./types.js";

/**
 * The nodes AIRA-Evo's memory shows (reference code): Draft, Improve and Crossover see every good node
 * of the run (scored successes, in step order); Debug sees the failing node's ancestors (ancestral
 * memory: all of them, nearest first).
 */
export function airaMemoryNodes(operator: Operator, parents: readonly EvoNode[], all: readonly EvoNode[]): EvoNode[] {
  if (operator !== "debug") return all.filter(isGood);
  const byId = new Map(all.map((n) => [n.nodeId, n]));
  return parents[0] ? nearestAncestors(parents[0], byId, all.length) : [];
}

/** The node's analysis: the memory model's summary when there is one, else the card's deterministic analysis. */
function analysisOf(n: EvoNode, byId: ReadonlyMap<string, EvoNode>, summaries: ReadonlyMap<string, string>): string {
  const s = summaries.get(n.nodeId);
  if (s) return s;
  return analyse(n, gainOverParents(n, byId));
}

/** One memory entry per node: its plan (design), its validation metric and its analysis. */
export function airaMemoryEntry(n: EvoNode, analysis: string): string {
  const metric = isGood(n)
    ? String(n.validScore)
    : `none (${n.status}${n.errorSignature ? `, ${n.errorSignature}` : ""})`;
  return (
    `- ${n.nodeId}\n  Design: ${n.plan.trim().replaceAll("\n", " ")}\n  Validation ` +
    `metric: ${metric}\n  Analysis: ${analysis}`
  );
}

/** AIRA-Evo's context: the parents, and the operator's memory (`airaMemoryNodes`) as plan, metric and analysis. */
export function airaContext(
  operator: Operator,
  parents: readonly EvoNode[],
  all: readonly EvoNode[],
  summaries: ReadonlyMap<string, string>,
  budget: OperatorContext["budget"],
  priors?: string,
): OperatorContext {
  const byId = new Map(all.map((n) => [n.nodeId, n]));
  const memoryNodes = airaMemoryNodes(operator, parents, all);
  const title =
    operator === "debug"
      ? "Ancestors of the failing node (nearest first):"
      : "Good nodes so far (plan, validation metric, analysis):";
  const role = operator === "debug" ? "ancestor" : "good";
  const entries = memoryNodes.map((n) => shownNode(n, role, airaMemoryEntry(n, analysisOf(n, byId, summaries)), byId));
  return memoryContext(parents, summaries, entries.length ? [{ title, entries }] : [], budget, priors);
}
