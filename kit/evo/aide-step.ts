import type { Rng } from "../util/rng.js";
import { debugDepth } from "./debug-chain.js";
import { isGood, type Action, type EvoNode } from "./types.js";

export interface AideLimits {
  readonly numDrafts: number;
  readonly debugProb: number;
  readonly maxDebugDepth: number;
}
export const AIDE_DEFAULTS: AideLimits = { numDrafts: 5, debugProb: 0.5, maxDebugDepth: 3 };

/**
 * AIDE greedy (docs/paper-map.md: Fig. 5 search loop): draft until `numDrafts` drafts exist; then with probability
 * `debugProb` debug a random buggy leaf whose debug depth <= `maxDebugDepth`; otherwise improve the best node;
 * draft when no good node exists. `pending` are actions already in flight (async workers).
 */
export function aideStep(
  nodes: readonly EvoNode[],
  rng: Rng,
  lim: AideLimits = AIDE_DEFAULTS,
  pending: readonly Action[] = [],
): Action {
  const drafts =
    nodes.filter((n) => n.operator === "draft").length + pending.filter((a) => a.operator === "draft").length;
  if (drafts < lim.numDrafts) return { operator: "draft", parents: [], island: 0 };
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const hasChild = new Set([...nodes.flatMap((n) => n.parents), ...pending.flatMap((a) => a.parents)]);
  if (rng.next() < lim.debugProb) {
    const leaves = nodes.filter(
      (n) => !isGood(n) && !hasChild.has(n.nodeId) && debugDepth(n, byId) <= lim.maxDebugDepth,
    );
    if (leaves.length) return { operator: "debug", parents: [leaves[rng.int(leaves.length)]!.nodeId], island: 0 };
  }
  const good = nodes.filter(isGood);
  if (!good.length) return { operator: "draft", parents: [], island: 0 };
  const best = good.reduce((b, n) => (n.fitness! > b.fitness! ? n : b));
  return { operator: "improve", parents: [best.nodeId], island: 0 };
}
