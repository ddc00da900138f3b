import { renderShown } from "../policy/shown-context.js";
import type {
  ContextShown,
  NodeView,
  Operator,
  OperatorContext,
  ShownBoard,
  ShownNode,
  ShownRole,
  ShownSection,
} from "../policy/types.js";
import { shownNode } from "./shown-node.js";
import { shownSynthesis } from "./shown-synthesis.js";
import {
  SELECTION_PRESETS,
  threeFactorSelection,
  type SelectionCandidate,
  type SelectionWeights,
} from "./three-factor-selection.js";
import { isGood, type EvoNode } from "./types.js";

/** The nodes an operator is shown, by role (docs/paper-map.md: Cards and memory). Pure: chosen from the tree alone. */
export interface ContextSelection {
  readonly parents: readonly EvoNode[];
  readonly ancestors: readonly EvoNode[];
  readonly siblings: readonly EvoNode[];
  /** Debug: related nodes, same error signature first, then the most recent (any outcome). */
  readonly related: readonly EvoNode[];
  /** Crossover: per parent, its own ancestors and siblings (what each branch brings). */
  readonly branches?: readonly {
    readonly parent: EvoNode;
    readonly ancestors: readonly EvoNode[];
    readonly siblings: readonly EvoNode[];
  }[];
}

export interface ContextLimits {
  readonly improveAncestors: number;
  readonly improveSiblings: number;
  readonly crossoverAncestors: number;
  readonly crossoverSiblings: number;
  readonly debugFailures: number;
  readonly draftIdeas: number;
  readonly trendWindow: number;
}
export const DEFAULT_CONTEXT_LIMITS: ContextLimits = {
  improveAncestors: 3,
  improveSiblings: 3,
  crossoverAncestors: 2,
  crossoverSiblings: 2,
  debugFailures: 8,
  draftIdeas: 10,
  trendWindow: 5,
};

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

/**
 * The three-factor utility (three-factor-selection.ts) of every scored node, over the run's scored nodes:
 * u = λs s̃ + λΔ Δ̃ + λn ν, s̃ the normalised signed score, Δ̃ the positive gain over the best parent / the
 * largest such gain, ν = 1/sqrt(1 + N_f), N_f = the other scored nodes of the family.
 */
export function nodeUtilities(
  all: readonly EvoNode[],
  weights: SelectionWeights = SELECTION_PRESETS.reference,
  normalisation: "minmax" | "rank" = "minmax",
): Map<string, number> {
  const byId = new Map(all.map((n) => [n.nodeId, n]));
  const scored = all.filter(isGood);
  const fam = new Map<string, number>();
  for (const n of scored) fam.set(n.methodFamily, (fam.get(n.methodFamily) ?? 0) + 1);
  const cands: SelectionCandidate[] = scored.map((n) => {
    const pf = n.parents.map((p) => byId.get(p)?.fitness ?? null).filter((f): f is number => f !== null);
    return {
      nodeId: n.nodeId,
      fitness: n.fitness!,
      bestParentFitness: pf.length ? Math.max(...pf) : null,
      familyCount: fam.get(n.methodFamily)! - 1,
    };
  });
  return new Map(threeFactorSelection(cands, weights, normalisation).map((s) => [s.nodeId, s.utility]));
}

/**
 * Siblings share at least one parent; the top k by three-factor utility (`nodeUtilities`), nodes
 * without a utility (failures) after them, most recent first; ties go to the most recent.
 */
export function topSiblings(
  node: EvoNode,
  all: readonly EvoNode[],
  k: number,
  utilities: ReadonlyMap<string, number> = nodeUtilities(all),
): EvoNode[] {
  if (node.parents.length === 0) return [];
  const ps = new Set(node.parents);
  const u = (n: EvoNode) => utilities.get(n.nodeId) ?? -Infinity;
  return all
    .filter((n) => n.nodeId !== node.nodeId && n.parents.some((p) => ps.has(p)))
    .sort((a, b) => u(b) - u(a) || b.step - a.step)
    .slice(0, k);
}

/**
 * Debug's related nodes, up to k: the nodes that failed with the failing node's error signature first,
 * then the most recent nodes of the run whatever their outcome (most recent first within each group).
 */
export function relatedNodes(node: EvoNode, all: readonly EvoNode[], k: number): EvoNode[] {
  const sig = node.errorSignature;
  const same = (n: EvoNode) => Number(sig !== null && !isGood(n) && n.errorSignature === sig);
  return all
    .filter((n) => n.nodeId !== node.nodeId)
    .sort((a, b) => same(b) - same(a) || b.step - a.step)
    .slice(0, k);
}

/**
 * Draft's "previously explored ideas": the run's non-Debug nodes, most recent first, one per distinct
 * (method family, first plan line), at most k, each a ShownNode (role idea) whose text is
 * `- [family] plan → validation v` (or the failure).
 */
export function exploredIdeaNodes(all: readonly EvoNode[], k: number): ShownNode[] {
  const byId = new Map(all.map((n) => [n.nodeId, n]));
  const seen = new Set<string>();
  const out: ShownNode[] = [];
  for (const n of [...all].sort((a, b) => b.step - a.step)) {
    if (n.operator === "debug" || out.length >= k) continue;
    const idea = (n.plan.split("\n")[0] ?? "").slice(0, 160);
    const key = `${n.methodFamily}\u0000${idea}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const outcome = isGood(n)
      ? `validation ${n.validScore}`
      : `${n.status}${n.errorSignature ? ` (${n.errorSignature})` : ""}`;
    out.push(shownNode(n, "idea", `- [${n.methodFamily}] ${idea} → ${outcome}`, byId));
  }
  return out;
}

/** The explored ideas' lines (`exploredIdeaNodes`' texts). */
export const exploredIdeas = (all: readonly EvoNode[], k: number): string[] =>
  exploredIdeaNodes(all, k).map((e) => e.text);

/**
 * Which nodes each operator sees (docs/paper-map.md: Cards and memory): Draft none (it gets `exploredIdeas`);
 * Improve the parent, its nearest ancestors and top siblings by utility; Crossover per parent the same; Debug the
 * failing node and its related nodes (`relatedNodes`).
 */
export function selectContext(
  operator: Operator,
  parents: readonly EvoNode[],
  all: readonly EvoNode[],
  limits: Partial<ContextLimits> = {},
  utilities: ReadonlyMap<string, number> = nodeUtilities(all),
): ContextSelection {
  const lim = { ...DEFAULT_CONTEXT_LIMITS, ...limits };
  const byId = new Map(all.map((n) => [n.nodeId, n]));
  const none: EvoNode[] = [];
  switch (operator) {
    case "draft":
      return { parents: none, ancestors: none, siblings: none, related: none };
    case "improve": {
      const p = parents[0]!;
      return {
        parents,
        ancestors: nearestAncestors(p, byId, lim.improveAncestors),
        siblings: topSiblings(p, all, lim.improveSiblings, utilities),
        related: none,
      };
    }
    case "debug": {
      const p = parents[0]!;
      return { parents, ancestors: none, siblings: none, related: relatedNodes(p, all, lim.debugFailures) };
    }
    case "crossover": {
      const branches = parents.map((p) => ({
        parent: p,
        ancestors: nearestAncestors(p, byId, lim.crossoverAncestors),
        siblings: topSiblings(p, all, lim.crossoverSiblings, utilities),
      }));
      return {
        parents,
        ancestors: branches.flatMap((b) => b.ancestors),
        siblings: branches.flatMap((b) => b.siblings),
        related: none,
        branches,
      };
    }
  }
}

/** Every node id the selection shows (the ones memory synthesis may summarise), in order, unique. */
export function selectedIds(sel: ContextSelection): string[] {
  return [...new Set([...sel.parents, ...sel.ancestors, ...sel.siblings, ...sel.related].map((n) => n.nodeId))];
}

export function toView(n: EvoNode, summary?: string): NodeView {
  return {
    nodeId: n.nodeId,
    operator: n.operator,
    code: n.code,
    plan: n.plan,
    spec: n.spec,
    status: n.status,
    validScore: n.validScore,
    errorSignature: n.errorSignature,
    traceback: n.traceback,
    stdoutTail: n.stdoutTail,
    methodFamily: n.methodFamily,
    summary,
  };
}

/** What an OpenMLE-Evo context adds to its selection: priors, Draft's explored ideas (`exploredIdeaNodes`), the
 * board of Improve/Crossover (`shownBoard`), and the run's nodes (gains and changes of the shown nodes; absent:
 * the selection's only). */
export interface ContextExtras {
  readonly priors?: string;
  readonly ideas?: readonly ShownNode[];
  readonly board?: ShownBoard;
  readonly nodes?: readonly EvoNode[];
}

/**
 * OpenMLE-Evo: the operator-conditioned context. What it shows is assembled as data (ContextShown): priors,
 * the board, Draft's ideas, Crossover's branches (each branch's ancestors and siblings) or the ancestors,
 * siblings and Debug's related nodes, and the memory synthesis of what they show (`shownSynthesis`; not for
 * Draft); memory is rendered from it.
 */
export function conditionedContext(
  sel: ContextSelection,
  summaries: ReadonlyMap<string, string>,
  budget: OperatorContext["budget"],
  extras: ContextExtras = {},
): OperatorContext {
  const view = (n: EvoNode) => toView(n, summaries.get(n.nodeId));
  const known = extras.nodes ?? [...sel.parents, ...sel.ancestors, ...sel.siblings, ...sel.related];
  const byId = new Map(known.map((n) => [n.nodeId, n]));
  const entry = (role: ShownRole, prefix: string) => (n: EvoNode) =>
    shownNode(n, role, `${prefix}${summaries.get(n.nodeId) ?? n.nodeId}`, byId);
  const sections: ShownSection[] = [];
  if (extras.ideas?.length)
    sections.push({ title: "Previously explored ideas (most recent first):", entries: extras.ideas });
  if (sel.branches) {
    sel.branches.forEach((b, i) => {
      const label = String.fromCharCode(65 + i);
      sections.push({
        title:
          `Branch ${label} contributes ${b.parent.methodFamily} (${b.parent.nodeId}, validation ` +
          `${b.parent.validScore ?? "none"}): ${b.parent.plan.split("\n")[0]}`,
        entries: [
          ...b.ancestors.map(entry("ancestor", "  ancestor ")),
          ...b.siblings.map(entry("sibling", "  sibling ")),
        ],
      });
    });
  } else {
    const add = (title: string, ns: readonly EvoNode[], role: ShownRole) => {
      if (ns.length) sections.push({ title, entries: ns.map(entry(role, "- ")) });
    };
    add("Ancestors (nearest first):", sel.ancestors, "ancestor");
    add("Siblings (highest utility first):", sel.siblings, "sibling");
    add("Related nodes (same error signature first, then the most recent):", sel.related, "related");
  }
  const stepOf = new Map(known.map((n) => [n.nodeId, n.step]));
  const synthesis = sel.parents.length
    ? shownSynthesis(
        sections.flatMap((s) => s.entries),
        extras.board?.underExplored ?? [],
        stepOf,
      )
    : undefined;
  const shown: ContextShown = {
    ...(extras.priors ? { priors: extras.priors } : {}),
    ...(extras.board ? { board: extras.board } : {}),
    sections,
    ...(synthesis ? { synthesis } : {}),
    budget: true,
  };
  return {
    parents: sel.parents.map(view),
    ancestors: sel.ancestors.map(view),
    siblings: sel.siblings.map(view),
    failures: sel.related.map(view),
    memory: renderShown(shown, budget),
    shown,
    budget,
  };
}

/** AIDE and MCTS: parents only, and the summarised history of all evaluated nodes (same for every operator). */
export function historyContext(
  parents: readonly EvoNode[],
  all: readonly EvoNode[],
  summaries: ReadonlyMap<string, string>,
  budget: OperatorContext["budget"],
  priors?: string,
): OperatorContext {
  const byId = new Map(all.map((n) => [n.nodeId, n]));
  const entries = all.map((n) => shownNode(n, "history", `- ${summaries.get(n.nodeId) ?? n.nodeId}`, byId));
  return memoryContext(parents, summaries, [{ title: "History of all evaluated nodes:", entries }], budget, priors);
}

/** A context of the parents and one memory (AIRA-Evo, AIDE, MCTS): the shown sections, rendered into `memory`. */
export function memoryContext(
  parents: readonly EvoNode[],
  summaries: ReadonlyMap<string, string>,
  sections: ContextShown["sections"],
  budget: OperatorContext["budget"],
  priors?: string,
): OperatorContext {
  const shown: ContextShown = { ...(priors ? { priors } : {}), sections, budget: true };
  return {
    parents: parents.map((n) => toView(n, summaries.get(n.nodeId))),
    memory: renderShown(shown, budget),
    shown,
    budget,
  };
}

/** The budget line every harness prints last (kit/policy renders it). */
export { budgetLine } from "../policy/shown-context.js";
