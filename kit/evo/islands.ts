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

/** Admission (spec §4): a scored child joins when its fitness >= the island's average (an empty island admits). */
export function admits(members: readonly EvoNode[], fitness: number | null, rule: "island-average" | "always" = "island-average"): boolean {
  if (fitness === null) return false;
  if (rule === "always" || members.length === 0) return true;
  const avg = members.reduce((s, m) => s + m.fitness!, 0) / members.length;
  return fitness >= avg;
}

/** The island's generation: the highest generation among its members (-1 when empty). */
export function islandGeneration(members: readonly EvoNode[]): number {
  return members.reduce((g, m) => Math.max(g, m.generation), -1);
}

/** Generation of a new node: drafts 0, debug keeps its parent's, improve/crossover = max parent + 1. */
export function childGeneration(operator: EvoNode["operator"], parents: readonly EvoNode[]): number {
  if (operator === "draft" || parents.length === 0) return 0;
  const g = Math.max(...parents.map((p) => p.generation));
  return operator === "debug" ? g : g + 1;
}
