import { inStepOrder, validScore, type TrajectoryRun } from "./trajectory-node.js";

/**
 * The best-score curve of one run, one row per node in step order (0-based steps):
 *   best_t   = the best valid score among the nodes of steps ≤ t (max when higher is better, min when lower),
 *              in the metric's own units; null until a node is valid;
 *   record_t = node t is valid and strictly better than best_{t−1} (the first valid node is a record);
 *   gain_t   = dir·(best_t − best_{t−1}) for a record after the first, else 0 (the validation gain of step t).
 */
export interface CurvePoint {
  readonly step: number;
  readonly node_id: string;
  readonly operator: string;
  readonly valid_score: number | null;
  readonly best: number | null;
  readonly record: boolean;
  readonly gain: number;
}

export function bestScoreCurve(run: TrajectoryRun): CurvePoint[] {
  const dir = run.higher_is_better ? 1 : -1;
  let best: number | null = null;
  return inStepOrder(run.nodes).map((n) => {
    const s = validScore(n);
    const record = s !== null && (best === null || dir * s > dir * best);
    const gain = record && best !== null ? dir * (s! - best) : 0;
    if (record) best = s;
    return { step: n.step, node_id: n.node_id, operator: n.operator, valid_score: s, best, record, gain };
  });
}
