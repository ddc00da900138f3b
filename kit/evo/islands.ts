import type { EvoNode } from "./types.js";

/**
 * Island membership, replayed from the nodes in step order: an admitted node joins its island;
 * past `maxSize` the island drops its lowest-fitness member (the oldest among ties).
 */
export function islandMembers(nodes: readonly EvoNode[], islands: number, maxSize: number): EvoNode[][] {
  const out: EvoNode[][] = Array.from({ length: islands }, () => []);
  for (const n of [...nodes].sort((a, b) => a.step - b.step)) {
    if (!n.admitted || n.fitness === null) continue;
    const isl = out[n.island % islands]!;
    isl.push(n);
    if (isl.length > maxSize) {
      let worst = 0;
      for (let i = 1; i < isl.length; i++) if (isl[i]!.fitness! < isl[worst]!.fitness!) worst = i;
      isl.splice(worst, 1);
    }
  }
  return out;
}

/**
 * Admission (the paper's Fig. 5 loop): every successful generation-0 node (the island's initial drafts and their
 * repairs) joins its island; from loop generation 1 on a scored child joins when its fitness >=
 * the island's average (an empty island admits).
 */
export function admits(
  members: readonly EvoNode[],
  fitness: number | null,
  rule: "island-average" | "always" = "island-average",
  generation = 1,
): boolean {
  if (fitness === null) return false;
  if (rule === "always" || generation === 0 || members.length === 0) return true;
  const avg = members.reduce((s, m) => s + m.fitness!, 0) / members.length;
  return fitness >= avg;
}

/**
 * The island's loop generation (reference code): generations of `perGeneration` individuals
 * (gen0Drafts) — generation 0 the initial drafts, then floor(individuals / perGeneration).
 * Individuals are the island's non-Debug nodes, finished or in flight (a Debug repairs an individual).
 */
export function loopGeneration(
  nodes: readonly Pick<EvoNode, "island" | "operator">[],
  pending: readonly Pick<EvoNode, "island" | "operator">[],
  island: number,
  perGeneration: number,
): number {
  const individuals = [...nodes, ...pending].filter((n) => n.island === island && n.operator !== "debug").length;
  return Math.floor(individuals / Math.max(1, perGeneration));
}

/** Lineage depth of a new node: drafts 0, Debug keeps its parent's, Improve/Crossover = deepest parent + 1. */
export function childLineageDepth(operator: EvoNode["operator"], parents: readonly EvoNode[]): number {
  if (operator === "draft" || parents.length === 0) return 0;
  const d = Math.max(...parents.map((p) => p.lineageDepth));
  return operator === "debug" ? d : d + 1;
}
