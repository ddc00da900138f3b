import type { Operator } from "../../policy/types.js";

/** What segment extraction needs of a stored node. */
export interface SegmentNode {
  readonly nodeId: string;
  readonly step: number;
  readonly operator: Operator;
  readonly parents: readonly string[];
}

/**
 * A local segment of an evolution tree (docs/paper-map.md: SFT collection): a start node and its consecutive Debug
 * descendants.
 */
export interface Segment {
  /** The Draft, Improve or Crossover node that starts it. */
  readonly start: string;
  readonly operator: Exclude<Operator, "debug">;
  /** Node ids from the start to the endpoint, in order (the start alone when it has no Debug child). */
  readonly steps: readonly string[];
  readonly endpoint: string;
}

/**
 * Extract local segments from a tree:
 * 1. every Draft/Improve/Crossover node starts a segment;
 * 2. the segment follows Debug children (a Debug node whose first parent is the current node),
 *    one segment per maximal Debug path when a node has several Debug children (lowest step first);
 * 3. it ends before the next Draft/Improve/Crossover node (those start their own segments).
 * Debug nodes whose chain does not reach back to a start node (e.g. a Debug of a missing node) start nothing.
 */
export function extractSegments(nodes: readonly SegmentNode[]): Segment[] {
  const debugChildren = new Map<string, SegmentNode[]>();
  for (const n of nodes) {
    if (n.operator !== "debug" || n.parents.length === 0) continue;
    const p = n.parents[0]!;
    debugChildren.set(p, [...(debugChildren.get(p) ?? []), n]);
  }
  for (const list of debugChildren.values()) list.sort((a, b) => a.step - b.step);
  const paths = (id: string): string[][] => {
    const kids = debugChildren.get(id) ?? [];
    if (kids.length === 0) return [[id]];
    return kids.flatMap((k) => paths(k.nodeId).map((p) => [id, ...p]));
  };
  const out: Segment[] = [];
  for (const n of [...nodes].sort((a, b) => a.step - b.step)) {
    if (n.operator === "debug") continue;
    for (const steps of paths(n.nodeId))
      out.push({ start: n.nodeId, operator: n.operator, steps, endpoint: steps[steps.length - 1]! });
  }
  return out;
}
