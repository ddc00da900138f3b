import { isGood, type EvoNode } from "./types.js";

export interface DebugChainLimits {
  /** At most this many Debug attempts per chain (reference: 10). */
  readonly maxAttempts: number;
  /** Stop once the chain's sandbox seconds reach this (0 = no cap). */
  readonly timeCapS: number;
  /** Draft afresh when this many last Debug attempts failed with one error signature (reference: 2). */
  readonly sameSignatureDraft: number;
}

/** The chain ending at `node`: the first non-Debug node, then its consecutive Debug descendants. */
export function debugChain(node: EvoNode, byId: ReadonlyMap<string, EvoNode>): EvoNode[] {
  const chain = [node];
  let cur = node;
  while (cur.operator === "debug" && cur.parents.length) {
    const p = byId.get(cur.parents[0]!);
    if (!p) break;
    chain.unshift(p);
    cur = p;
  }
  return chain;
}

/** Debug depth (AIDE): consecutive Debug steps that led to this node. */
export function debugDepth(node: EvoNode, byId: ReadonlyMap<string, EvoNode>): number {
  return debugChain(node, byId).length - 1;
}

/**
 * What follows a node in its worker's lane: "debug" it (a buggy child enters a Debug chain),
 * "draft" afresh (the last attempts failed with the same signature), or "none" (it succeeded, or
 * the chain hit its attempt or time cap: back to normal selection).
 */
export function debugDecision(last: EvoNode, byId: ReadonlyMap<string, EvoNode>, lim: DebugChainLimits): "debug" | "draft" | "none" {
  if (isGood(last)) return "none";
  const chain = debugChain(last, byId);
  const attempts = chain.filter((n) => n.operator === "debug");
  const tail = attempts.slice(-lim.sameSignatureDraft);
  if (lim.sameSignatureDraft > 0 && tail.length === lim.sameSignatureDraft && tail.every((n) => n.errorSignature !== null && n.errorSignature === tail[0]!.errorSignature)) {
    return "draft";
  }
  if (attempts.length >= lim.maxAttempts) return "none";
  if (lim.timeCapS > 0 && chain.reduce((s, n) => s + n.sandboxS, 0) >= lim.timeCapS) return "none";
  return "debug";
}
