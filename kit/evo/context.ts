import type { NodeView, Operator, OperatorContext } from "../policy/types.js";
import { isGood, type EvoNode } from "./types.js";

/** The nodes an operator is shown, by role (spec §4 point 4). Pure: chosen from the tree alone. */
export interface ContextSelection {
  readonly parents: readonly EvoNode[];
  readonly ancestors: readonly EvoNode[];
  readonly siblings: readonly EvoNode[];
  readonly failures: readonly EvoNode[];
  /** Crossover: per parent, its own ancestors and siblings (what each branch brings). */
  readonly branches?: readonly { readonly parent: EvoNode; readonly ancestors: readonly EvoNode[]; readonly siblings: readonly EvoNode[] }[];
}

export interface ContextLimits {
  readonly improveAncestors: number;
  readonly improveSiblings: number;
  readonly crossoverAncestors: number;
  readonly crossoverSiblings: number;
  readonly debugFailures: number;
}
export const DEFAULT_CONTEXT_LIMITS: ContextLimits = { improveAncestors: 3, improveSiblings: 3, crossoverAncestors: 2, crossoverSiblings: 2, debugFailures: 8 };

/** Nearest ancestors, breadth-first along parent links (first parent first), without repeats. */
export function nearestAncestors(node: EvoNode, byId: ReadonlyMap<string, EvoNode>, k: number): EvoNode[] {
  const out: EvoNode[] = [];
  const seen = new Set([node.nodeId]);
  let frontier = [...node.parents];
  while (frontier.length && out.length < k) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id)) continue;
      seen.add(id);
      const n = byId.get(id);
      if (!n) continue;
      if (out.length < k) out.push(n);
      next.push(...n.parents);
    }
    frontier = next;
  }
  return out;
}

/** Siblings share at least one parent; the top k by fitness (scored first, then most recent). */
export function topSiblings(node: EvoNode, all: readonly EvoNode[], k: number): EvoNode[] {
  if (node.parents.length === 0) return [];
  const ps = new Set(node.parents);
  return all
    .filter((n) => n.nodeId !== node.nodeId && n.parents.some((p) => ps.has(p)))
    .sort((a, b) => (b.fitness ?? -Infinity) - (a.fitness ?? -Infinity) || b.step - a.step)
    .slice(0, k);
}

/** Up to k earlier failures: the failing node's error signature first, then the most recent. */
export function earlierFailures(node: EvoNode, all: readonly EvoNode[], k: number): EvoNode[] {
  const sig = node.errorSignature;
  return all
    .filter((n) => n.nodeId !== node.nodeId && n.step < node.step && !isGood(n))
    .sort((a, b) => Number(b.errorSignature === sig && sig !== null) - Number(a.errorSignature === sig && sig !== null) || b.step - a.step)
    .slice(0, k);
}

/** Which nodes each operator sees. Draft: none; Improve/Crossover/Debug: spec §4 point 4. */
export function selectContext(operator: Operator, parents: readonly EvoNode[], all: readonly EvoNode[], limits = DEFAULT_CONTEXT_LIMITS): ContextSelection {
  const byId = new Map(all.map((n) => [n.nodeId, n]));
  const none: EvoNode[] = [];
  switch (operator) {
    case "draft":
      return { parents: none, ancestors: none, siblings: none, failures: none };
    case "improve": {
      const p = parents[0]!;
      return { parents, ancestors: nearestAncestors(p, byId, limits.improveAncestors), siblings: topSiblings(p, all, limits.improveSiblings), failures: none };
    }
    case "debug": {
      const p = parents[0]!;
      return { parents, ancestors: none, siblings: none, failures: earlierFailures(p, all, limits.debugFailures) };
    }
    case "crossover": {
      const branches = parents.map((p) => ({
        parent: p,
        ancestors: nearestAncestors(p, byId, limits.crossoverAncestors),
        siblings: topSiblings(p, all, limits.crossoverSiblings),
      }));
      return { parents, ancestors: branches.flatMap((b) => b.ancestors), siblings: branches.flatMap((b) => b.siblings), failures: none, branches };
    }
  }
}

/** Every node id the selection shows (the ones memory synthesis may summarise), in order, unique. */
export function selectedIds(sel: ContextSelection): string[] {
  return [...new Set([...sel.parents, ...sel.ancestors, ...sel.siblings, ...sel.failures].map((n) => n.nodeId))];
}

export function toView(n: EvoNode, summary?: string): NodeView {
  return {
    nodeId: n.nodeId, operator: n.operator, code: n.code, plan: n.plan, spec: n.spec, status: n.status,
    validScore: n.validScore, errorSignature: n.errorSignature, traceback: n.traceback, stdoutTail: n.stdoutTail,
    methodFamily: n.methodFamily, summary,
  };
}

const line = (n: EvoNode, summaries: ReadonlyMap<string, string>) => `- ${summaries.get(n.nodeId) ?? n.nodeId}`;

/** OpenMLE-Evo: the operator-conditioned context, with memory rendered from the selected nodes only. */
export function conditionedContext(sel: ContextSelection, summaries: ReadonlyMap<string, string>, budget: OperatorContext["budget"], priors?: string): OperatorContext {
  const view = (n: EvoNode) => toView(n, summaries.get(n.nodeId));
  const parts: string[] = [];
  if (priors) parts.push(`Priors from earlier tasks:\n${priors}`);
  if (sel.branches) {
    sel.branches.forEach((b, i) => {
      const label = String.fromCharCode(65 + i);
      parts.push(`Branch ${label} contributes ${b.parent.methodFamily} (${b.parent.nodeId}, validation ${b.parent.validScore ?? "none"}): ${b.parent.plan.split("\n")[0]}`);
      for (const a of b.ancestors) parts.push(`  ancestor ${line(a, summaries).slice(2)}`);
      for (const s of b.siblings) parts.push(`  sibling ${line(s, summaries).slice(2)}`);
    });
  } else {
    if (sel.ancestors.length) parts.push("Ancestors (nearest first):", ...sel.ancestors.map((n) => line(n, summaries)));
    if (sel.siblings.length) parts.push("Siblings (best first):", ...sel.siblings.map((n) => line(n, summaries)));
    if (sel.failures.length) parts.push("Earlier failures (same error signature first):", ...sel.failures.map((n) => line(n, summaries)));
  }
  parts.push(budgetLine(budget));
  return {
    parents: sel.parents.map(view), ancestors: sel.ancestors.map(view), siblings: sel.siblings.map(view), failures: sel.failures.map(view),
    memory: parts.join("\n"), budget,
  };
}

/** AIRA-Evo: parents only, and the pre-summarised history of all evaluated nodes (same for every operator). */
export function historyContext(parents: readonly EvoNode[], all: readonly EvoNode[], summaries: ReadonlyMap<string, string>, budget: OperatorContext["budget"], priors?: string): OperatorContext {
  const parts = [...(priors ? [`Priors from earlier tasks:\n${priors}`] : []), "History of all evaluated nodes:", ...all.map((n) => line(n, summaries)), budgetLine(budget)];
  return { parents: parents.map((n) => toView(n, summaries.get(n.nodeId))), memory: parts.join("\n"), budget };
}

export function budgetLine(b: OperatorContext["budget"]): string {
  const time = Number.isFinite(b.remainingTimeS) ? `${Math.round(b.remainingTimeS)} s` : "no wall-time limit";
  return `Budget: ${b.remainingSteps} steps and ${time} remain; each program may run at most ${b.perRunTimeLimitS} s.`;
}
