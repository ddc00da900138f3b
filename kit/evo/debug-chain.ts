import { isGood, type EvoNode } from "./types.js";

export interface DebugChainLimits {
  /** At most this many Debug attempts per chain (reference: 10). */
  readonly maxAttempts: number;
  /** Stop once the chain's sandbox seconds reach this (0 = no cap). */
  readonly timeCapS: number;
  /**
   * Draft afresh when this many last failures of the chain (reference: 2) share one terminal
   * category (TERMINAL_FAILURES); 0 = never.
   */
  readonly sameSignatureDraft: number;
}

/**
 * Failure categories that debugging cannot fix (reference code): the program ran out of time or
 * memory, needs a module the sandbox lacks, or never started (pre-flight: no code, sandbox error).
 * Other signatures (key_error, value_error, column_mismatch, …) keep a chain debugging.
 */
export const TERMINAL_FAILURES: Readonly<Record<string, string>> = {
  timeout: "timeout",
  import_error: "import",
  memory_error: "memory",
  gpu_memory_error: "memory",
  missing_code: "preflight",
  sandbox_error: "preflight",
};

/** The terminal category of a failure signature (null when debugging may fix it). */
export const terminalCategory = (signature: string | null): string | null =>
  signature === null ? null : (TERMINAL_FAILURES[signature] ?? null);

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
 * What follows a node in its worker's lane (reference code):
 * 1. it succeeded → "none" (back to normal selection);
 * 2. the last `sameSignatureDraft` failures of its chain (the buggy node and its Debug attempts)
 *    share one terminal category (timeout, import, memory, pre-flight) → "draft" afresh;
 * 3. the chain has made `maxAttempts` Debug attempts or spent `timeCapS` sandbox seconds → "draft" afresh (the
 *    reference lane requests a fresh draft after its caps; before issue 30 the kit went back to selection);
 * 4. else "debug" it (other repeated signatures keep debugging up to the caps).
 * `maxAttempts` 0 turns Debug chains off: a failure then goes back to selection ("none").
 */
export function debugDecision(
  last: EvoNode,
  byId: ReadonlyMap<string, EvoNode>,
  lim: DebugChainLimits,
): "debug" | "draft" | "none" {
  if (isGood(last)) return "none";
  const chain = debugChain(last, byId);
  const attempts = chain.filter((n) => n.operator === "debug");
  const k = lim.sameSignatureDraft;
  if (k > 0 && chain.length >= k) {
    const cats = chain.slice(-k).map((n) => terminalCategory(n.errorSignature));
    if (cats[0] !== null && cats.every((c) => c === cats[0])) return "draft";
  }
  if (lim.maxAttempts === 0) return "none";
  if (attempts.length >= lim.maxAttempts) return "draft";
  if (lim.timeCapS > 0 && chain.reduce((s, n) => s + n.sandboxS, 0) >= lim.timeCapS) return "draft";
  return "debug";
}
