import { nodeGains, type TrajectoryRun } from "./trajectory-node.js";

/**
 * The champion's lineage: the path from a first draft to the final champion c (the run summary's champion,
 * else the best valid node, the earliest among ties). Walking back from c, each node's predecessor is its
 * best valid parent bp(n) (trajectory-node.ts), else its first parent (a Debug fixes a buggy parent, which
 * has no score); the walk ends at a node without parents (a Draft). One row per node, first draft first:
 * its step (0-based), operator, score and gain(n) over its best valid parent (null for the Draft).
 */
export interface LineageStep {
  readonly position: number;
  readonly step: number;
  readonly node_id: string;
  readonly operator: string;
  readonly valid_score: number | null;
  /** The node the path came from (null for the first draft). */
  readonly parent_id: string | null;
  readonly gain: number | null;
}

/** The champion's node id: the summary's, else the best valid node's (earliest among ties); null: none. */
export function championOf(run: TrajectoryRun): string | null {
  const g = nodeGains(run);
  if (run.champion_node_id !== null && g.some((n) => n.node_id === run.champion_node_id)) return run.champion_node_id;
  const dir = run.higher_is_better ? 1 : -1;
  let best: (typeof g)[number] | null = null;
  for (const n of g) if (n.score !== null && (best === null || dir * n.score > dir * best.score!)) best = n;
  return best?.node_id ?? null;
}

export function championLineage(run: TrajectoryRun): LineageStep[] {
  const gains = new Map(nodeGains(run).map((n) => [n.node_id, n]));
  const nodes = new Map(run.nodes.map((n) => [n.node_id, n]));
  const path: string[] = [];
  const seen = new Set<string>();
  for (let id = championOf(run); id !== null && gains.has(id) && !seen.has(id);) {
    seen.add(id);
    path.push(id);
    id = gains.get(id)!.best_parent_id ?? nodes.get(id)!.parents[0] ?? null;
  }
  return path.reverse().map((id, position) => {
    const g = gains.get(id)!;
    return {
      position,
      step: g.step,
      node_id: id,
      operator: g.operator,
      valid_score: g.score,
      parent_id: position === 0 ? null : path[position - 1]!,
      gain: g.gain,
    };
  });
}
