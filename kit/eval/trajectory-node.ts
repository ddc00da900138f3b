/**
 * A search run's trajectory as the analysis helpers take it, and each node's gain over its best parent.
 *
 * With dir = +1 when higher is better, −1 when lower is better (the task's metric direction):
 *   valid(n)  = n.status = "success" and n.valid_score is finite (the kit's "good node", kit/evo isGood);
 *   bp(n)     = the valid parent with the best score, dir·score maximal (Crossover's two parents: the better
 *               one; the earlier-listed among ties); none when no parent is valid;
 *   gain(n)   = dir·(score(n) − score(bp(n))), in the metric's own units, > 0 = better than the parent;
 *               NA (null) when n is not valid or has no valid parent. A Draft has no parent, so its gain is
 *               always NA (a Debug of a buggy node too: its parent has no score to improve on);
 *   beat(n)   = valid(n) and gain(n) > 0, defined (not null) only for nodes with a valid parent; a child
 *               that failed did not beat its parent.
 */

/** The kit's operator names (kit/policy/types.ts OPERATORS; eval sits below policy and repeats them). */
export const TRAJECTORY_OPERATORS = ["draft", "improve", "debug", "crossover"] as const;

export interface TrajectoryNode {
  readonly node_id: string;
  /** 0-based, as stored (node n0009 is step 9); null: not recorded (ordered by node id then). */
  readonly step: number | null;
  readonly operator: string;
  readonly parents: readonly string[];
  readonly status: string | null;
  readonly valid_score: number | null;
  /** The hidden test score where the node's submission was graded (optional: hand-built trees may omit it). */
  readonly test_score?: number | null;
  /** The program, where loaded (optional: for the validation scheme of its score). */
  readonly code?: string | null;
}

export interface TrajectoryRun {
  readonly run_id: string;
  readonly task_id: string;
  readonly harness: string;
  readonly higher_is_better: boolean;
  /** The configured number of steps; null: unknown (the phase split then uses the steps the run made). */
  readonly step_budget: number | null;
  /** The final champion as the run summary names it; null: the best valid node is used. */
  readonly champion_node_id: string | null;
  readonly nodes: readonly TrajectoryNode[];
}

export interface NodeGain {
  readonly node_id: string;
  readonly step: number;
  readonly operator: string;
  readonly valid: boolean;
  /** The validation score when valid, else null. */
  readonly score: number | null;
  readonly best_parent_id: string | null;
  readonly best_parent_score: number | null;
  readonly gain: number | null;
  readonly beat_parent: boolean | null;
}

/** The score of a valid node, else null. */
export function validScore(n: TrajectoryNode): number | null {
  return n.status === "success" && n.valid_score !== null && Number.isFinite(n.valid_score) ? n.valid_score : null;
}

/** The nodes in step order (ties and missing steps by node id), each with its position as `step` when missing. */
export function inStepOrder(nodes: readonly TrajectoryNode[]): (TrajectoryNode & { step: number })[] {
  const sorted = [...nodes].sort(
    (a, b) => (a.step ?? Infinity) - (b.step ?? Infinity) || a.node_id.localeCompare(b.node_id),
  );
  return sorted.map((n, i) => ({ ...n, step: n.step ?? i }));
}

/** gain(n), bp(n) and beat(n) of every node, in step order. */
export function nodeGains(run: TrajectoryRun): NodeGain[] {
  const dir = run.higher_is_better ? 1 : -1;
  const byId = new Map(run.nodes.map((n) => [n.node_id, n]));
  return inStepOrder(run.nodes).map((n) => {
    const score = validScore(n);
    let bp: { id: string; score: number } | null = null;
    for (const p of n.parents) {
      const ps = byId.has(p) ? validScore(byId.get(p)!) : null;
      if (ps !== null && (bp === null || dir * ps > dir * bp.score)) bp = { id: p, score: ps };
    }
    const gain = score !== null && bp !== null ? dir * (score - bp.score) : null;
    return {
      node_id: n.node_id,
      step: n.step,
      operator: n.operator,
      valid: score !== null,
      score,
      best_parent_id: bp?.id ?? null,
      best_parent_score: bp?.score ?? null,
      gain,
      beat_parent: bp === null ? null : gain !== null && gain > 0,
    };
  });
}
