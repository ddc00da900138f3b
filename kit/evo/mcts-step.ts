import { debugDepth } from "./debug-chain.js";
import { minMax } from "./softmax.js";
import { isGood, type Action, type EvoNode } from "./types.js";

/** AIRA's MCTS score: uct = norm_q + c·sqrt(ln N_parent / N) (c = 0.25 in the reference). */
export function uct(normQ: number, nParent: number, n: number, c = 0.25): number {
  if (n <= 0) return Infinity;
  return normQ + c * Math.sqrt(Math.log(Math.max(nParent, 1)) / n);
}

export interface MctsLimits {
  readonly c: number;
  /** Children of the virtual root (drafts). */
  readonly numDrafts: number;
  /** A node is expanded until it has this many children, then the search descends through it. */
  readonly maxChildren: number;
  readonly maxDebugDepth: number;
}
export const MCTS_DEFAULTS: MctsLimits = { c: 0.25, numDrafts: 5, maxChildren: 3, maxDebugDepth: 3 };

/**
 * One MCTS step over the stored tree (deterministic: no sampling). Values are min-max-normalised
 * fitness (failures 0); N = 1 + descendants, norm_q = mean value in the subtree. From the virtual
 * root, descend by uct until a node with room for children; expand it: root → Draft, scored node →
 * Improve, buggy node → Debug (up to `maxDebugDepth`). `pending` (in flight) count as children.
 */
export function mctsStep(nodes: readonly EvoNode[], lim: MctsLimits = MCTS_DEFAULTS, pending: readonly Action[] = []): Action & { readonly uct?: Record<string, number> } {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const good = nodes.filter(isGood);
  const norm = minMax(good.map((n) => n.fitness!), 1);
  const value = new Map(good.map((n, i) => [n.nodeId, norm[i]!]));
  const children = new Map<string, EvoNode[]>([["", []]]);
  for (const n of nodes) {
    const key = n.parents[0] ?? "";
    if (!children.has(key)) children.set(key, []);
    children.get(key)!.push(n);
  }
  const pend = new Map<string, number>();
  for (const a of pending) pend.set(a.parents[0] ?? "", (pend.get(a.parents[0] ?? "") ?? 0) + 1);
  const stats = new Map<string, { n: number; q: number }>();
  const visit = (id: string): { n: number; sum: number } => {
    let n = 1;
    let sum = value.get(id) ?? 0;
    for (const ch of children.get(id) ?? []) {
      const s = visit(ch.nodeId);
      n += s.n;
      sum += s.sum;
    }
    stats.set(id, { n, q: sum / n });
    return { n, sum };
  };
  const rootN = (children.get("")!).reduce((s, ch) => s + visit(ch.nodeId).n, 0) + 1;
  const room = (id: string) => (children.get(id)?.length ?? 0) + (pend.get(id) ?? 0);
  const expandable = (n: EvoNode) => room(n.nodeId) < lim.maxChildren && (isGood(n) || debugDepth(n, byId) < lim.maxDebugDepth + 1);
  let cur = "";
  let nParent = rootN;
  const trace: Record<string, number> = {};
  for (;;) {
    if (cur === "" ? room("") < lim.numDrafts : expandable(byId.get(cur)!)) break;
    const kids = (children.get(cur) ?? []).filter((k) => stats.has(k.nodeId) && (expandable(k) || (children.get(k.nodeId)?.length ?? 0) > 0));
    if (!kids.length) return { operator: "draft", parents: [], island: 0, uct: trace };
    let best: EvoNode | null = null;
    let bestU = -Infinity;
    for (const k of kids) {
      const s = stats.get(k.nodeId)!;
      const u = uct(s.q, nParent, s.n, lim.c);
      trace[k.nodeId] = u;
      if (u > bestU) { bestU = u; best = k; }
    }
    cur = best!.nodeId;
    nParent = stats.get(cur)!.n;
  }
  if (cur === "") return { operator: "draft", parents: [], island: 0, uct: trace };
  const node = byId.get(cur)!;
  return { operator: isGood(node) ? "improve" : "debug", parents: [cur], island: 0, uct: trace };
}
