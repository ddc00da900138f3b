import { z } from "zod";
import { debugChain } from "./debug-chain.js";
import { isGood, type Action, type EvoNode } from "./types.js";

/** MCTS settings (AIRA-dojo's reference values as defaults). */
export const MctsConfig = z
  .object({
    c: z.number().nonnegative().default(0.25).describe("Exploration constant of uct (reference 0.25)."),
    numChildren: z
      .number()
      .int()
      .positive()
      .default(5)
      .describe(
        "Children a selected leaf is expanded with, at once (reference 5; the virtual root gets this many Drafts).",
      ),
    maxDebugDepth: z
      .number()
      .int()
      .nonnegative()
      .default(20)
      .describe("Debug attempts of a buggy child's debug cycle (reference 20; the cycle also stops at debugTimeCapS)."),
  })
  .strict();
export type MctsLimits = z.infer<typeof MctsConfig>;
export const MCTS_DEFAULTS: MctsLimits = MctsConfig.parse({});

/**
 * AIRA-dojo's uct: uct = norm_q + c·sqrt(ln N_parent / N); an unvisited node (N = 0) ranks last (−∞).
 */
export function uct(normQ: number, nParent: number, n: number, c = 0.25): number {
  if (n <= 0) return -Infinity;
  return normQ + c * Math.sqrt(Math.log(Math.max(nParent, 1)) / n);
}

/** norm_q = (Q − lo) / (hi − lo), lo/hi the global min/max value of every back-propagated success; 0.5 when hi = lo. */
export function normaliseQ(q: number, lo: number, hi: number): number {
  if (!(hi > lo)) return 0.5;
  return Math.min(1, Math.max(0, (q - lo) / (hi - lo)));
}

/** Visit statistics: only successes back-propagate, so N(v) = good nodes in v's subtree (v included), Q(v) = their mean
 * fitness. */
export function mctsStats(nodes: readonly EvoNode[]): Map<string, { n: number; q: number }> {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const acc = new Map<string, { n: number; sum: number }>([["", { n: 0, sum: 0 }]]);
  for (const n of nodes) acc.set(n.nodeId, { n: 0, sum: 0 });
  for (const g of nodes.filter(isGood)) {
    // The success's path: itself, its ancestors along first-parent links, and the virtual root "".
    for (let cur: EvoNode | undefined = g; cur; cur = cur.parents[0] ? byId.get(cur.parents[0]) : undefined) {
      const a = acc.get(cur.nodeId)!;
      a.n++;
      a.sum += g.fitness!;
    }
    const root = acc.get("")!;
    root.n++;
    root.sum += g.fitness!;
  }
  return new Map([...acc].map(([id, a]) => [id, { n: a.n, q: a.n ? a.sum / a.n : 0 }]));
}

type Planned = Pick<Action, "operator" | "parents">;
const parentOf = (x: Planned) => x.parents[0] ?? "";
const isExpansion = (x: Planned) => x.operator !== "debug";

/**
 * One MCTS step as in AIRA-dojo, from the stored tree (so a resumed run continues where it stopped).
 * Values are signed fitness (direction-aware); `mctsStats`, `normaliseQ` and `uct` give each node's score.
 * 1. The open expansion is that of the expansion children (non-Debug) in flight, else of the latest
 *    expansion child; its leaf L is their parent (the virtual root for Drafts).
 * 2. A finished child of L whose debug cycle is open (its last attempt failed, fewer than `maxDebugDepth`
 *    attempts, under `debugTimeCapS` sandbox seconds, no attempt in flight) → Debug the cycle's last node.
 * 3. L has fewer than `numChildren` expansion children (finished or in flight) → one more: Draft from
 *    the root, else Improve L (a buggy leaf, reached only through unvisited nodes, is improved as in the reference).
 * 4. Anything still in flight → null (wait: selection needs its outcome).
 * 5. Select: from the root, descend to the child with the highest uct (the first among ties; unvisited
 *    last) until a node without children; expand that leaf as in step 3.
 */
export function mctsStep(
  nodes: readonly EvoNode[],
  lim: MctsLimits = MCTS_DEFAULTS,
  pending: readonly Planned[] = [],
  debugTimeCapS = 0,
): (Action & { readonly uct?: Record<string, number> }) | null {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const expand = (leaf: string, trace?: Record<string, number>): Action & { readonly uct?: Record<string, number> } =>
    leaf === ""
      ? { operator: "draft", parents: [], island: 0, uct: trace }
      : { operator: "improve", parents: [leaf], island: 0, uct: trace };
  // 1. The open expansion.
  const inFlight = pending.filter(isExpansion);
  const latest =
    inFlight.at(-1) ??
    [...nodes]
      .filter(isExpansion)
      .sort((a, b) => a.step - b.step)
      .at(-1);
  if (latest) {
    const leaf = parentOf(latest);
    const children = nodes.filter((n) => isExpansion(n) && parentOf(n) === leaf);
    // 2. Open debug cycles of its finished children.
    for (const child of children) {
      let tip = child;
      for (;;) {
        const next = nodes
          .filter((n) => n.operator === "debug" && n.parents[0] === tip.nodeId)
          .sort((a, b) => a.step - b.step)
          .at(-1);
        if (!next) break;
        tip = next;
      }
      if (isGood(tip) || pending.some((a) => a.operator === "debug" && a.parents[0] === tip.nodeId)) continue;
      const chain = debugChain(tip, byId);
      const timeUsed = chain.reduce((s, n) => s + n.sandboxS, 0);
      if (chain.length - 1 < lim.maxDebugDepth && !(debugTimeCapS > 0 && timeUsed >= debugTimeCapS))
        return { operator: "debug", parents: [tip.nodeId], island: 0 };
    }
    // 3. More children for the same leaf.
    if (children.length + inFlight.length < lim.numChildren) return expand(leaf);
  } else return expand("");
  // 4. Wait for what is in flight.
  if (pending.length) return null;
  // 5. Select a new leaf by uct.
  const stats = mctsStats(nodes);
  const good = nodes.filter(isGood).map((n) => n.fitness!);
  const lo = Math.min(...good);
  const hi = Math.max(...good);
  const kids = new Map<string, EvoNode[]>();
  for (const n of [...nodes].sort((a, b) => a.step - b.step)) {
    const p = parentOf(n);
    if (!kids.has(p)) kids.set(p, []);
    kids.get(p)!.push(n);
  }
  const trace: Record<string, number> = {};
  let cur = "";
  while (kids.get(cur)?.length) {
    const nParent = stats.get(cur)!.n;
    let best = "";
    let bestU = -Infinity;
    for (const k of kids.get(cur)!) {
      const s = stats.get(k.nodeId)!;
      const u = uct(s.n ? normaliseQ(s.q, lo, hi) : 0, nParent, s.n, lim.c);
      trace[k.nodeId] = u;
      if (best === "" || u > bestU) {
        best = k.nodeId;
        bestU = u;
      }
    }
    cur = best;
  }
  return expand(cur, trace);
}
