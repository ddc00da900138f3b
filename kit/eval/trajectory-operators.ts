import { nodeGains, TRAJECTORY_OPERATORS, type TrajectoryRun } from "./trajectory-node.js";

/**
 * Per-operator statistics of one run (gain(n), bp(n), beat(n) as in trajectory-node.ts), for each operator o:
 *   nodes            = |N_o|, the nodes the operator made;
 *   valid_rate       = |{n ∈ N_o : valid(n)}| / |N_o|                      (null when N_o is empty);
 *   beat_parent_rate = |{n : beat(n)}| / |{n ∈ N_o : bp(n) exists}|        (null without such nodes: Drafts);
 *   mean_gain        = mean of gain(n) over n ∈ N_o with gain(n) defined    (null when none; may be < 0);
 *   total_gain       = Σ gain(n) over the same nodes                       (null when none).
 * Rows for the kit's four operators first (present or not), then any other operator name the run holds.
 */
export interface OperatorStatsRow {
  readonly operator: string;
  readonly nodes: number;
  readonly valid: number;
  readonly valid_rate: number | null;
  /** Nodes with a valid parent: the denominator of beat_parent_rate. */
  readonly with_valid_parent: number;
  readonly beat_parent: number;
  readonly beat_parent_rate: number | null;
  /** Nodes with a defined gain (valid, with a valid parent). */
  readonly gains: number;
  readonly mean_gain: number | null;
  readonly total_gain: number | null;
}

export function operatorStats(run: TrajectoryRun): OperatorStatsRow[] {
  const g = nodeGains(run);
  const others = [...new Set(g.map((n) => n.operator))].filter(
    (o) => !(TRAJECTORY_OPERATORS as readonly string[]).includes(o),
  );
  return [...TRAJECTORY_OPERATORS, ...others.sort()].map((operator) => {
    const own = g.filter((n) => n.operator === operator);
    const valid = own.filter((n) => n.valid).length;
    const comparable = own.filter((n) => n.beat_parent !== null);
    const beat = comparable.filter((n) => n.beat_parent).length;
    const gains = own.flatMap((n) => (n.gain === null ? [] : [n.gain]));
    const total = gains.reduce((a, x) => a + x, 0);
    return {
      operator,
      nodes: own.length,
      valid,
      valid_rate: own.length ? valid / own.length : null,
      with_valid_parent: comparable.length,
      beat_parent: beat,
      beat_parent_rate: comparable.length ? beat / comparable.length : null,
      gains: gains.length,
      mean_gain: gains.length ? total / gains.length : null,
      total_gain: gains.length ? total : null,
    };
  });
}
