import { meanStd, percentile, type MeanStd } from "./mean-std.js";

export interface EffNode {
  readonly run_id: string;
  readonly node_id: string;
  readonly step: number | null;
  readonly operator: string;
  readonly valid_score: number | null;
}
export interface EffCall {
  readonly run_id: string;
  readonly operator: string | null;
  readonly prompt_chars: number | null;
  readonly prompt_tokens: number | null;
  readonly completion_tokens: number | null;
}

/** One point of a run's best-so-far curve; `record` marks a new best, `gain` its improvement. */
export interface TracePoint {
  readonly run_id: string;
  readonly node_id: string;
  readonly index: number;
  readonly operator: string;
  readonly valid_score: number | null;
  readonly best: number | null;
  readonly record: boolean;
  readonly gain: number;
}

/**
 * Best validation score so far along one run's nodes (ordered by step, then node id). A node with a
 * finite score better than the best so far is a new record; the first scored node is a record with
 * gain 0 (there is nothing to improve on); later records gain |new best − old best|.
 */
export function recordTrace(nodes: readonly EffNode[], higherIsBetter: boolean): TracePoint[] {
  const sorted = [...nodes].sort((a, b) => (a.step ?? 0) - (b.step ?? 0) || a.node_id.localeCompare(b.node_id));
  let best: number | null = null;
  return sorted.map((n, index) => {
    const s = n.valid_score !== null && Number.isFinite(n.valid_score) ? n.valid_score : null;
    let record = false;
    let gain = 0;
    if (s !== null && (best === null || (higherIsBetter ? s > best : s < best))) {
      gain = best === null ? 0 : Math.abs(s - best);
      best = s;
      record = true;
    }
    return { run_id: n.run_id, node_id: n.node_id, index, operator: n.operator, valid_score: s, best, record, gain };
  });
}

export interface RunEfficiency {
  readonly run_id: string;
  readonly nodes: number;
  readonly tokens: number;
  readonly records: number;
  /** New-record updates per 1,000 tokens (0 when the run used no tokens). */
  readonly records_per_ktoken: number;
  /** Share of the run's total validation gain produced by each operator (sums to 1, or empty without gain). */
  readonly gain_share: Record<string, number>;
  /**
   * The paper's late Improve/Crossover share: of the run's validation gain after its first valid node,
   * the share made by Improve and Crossover steps, gains measured in validation Human-Rank units (the
   * validation score placed on the task's leaderboard) when the task has a leaderboard, else in
   * validation-score units (see `gain_units`); null without gain.
   */
  readonly late_improve_crossover_share: number | null;
  /** Units of late_improve_crossover_share's gains. */
  readonly gain_units: "human_rank" | "validation_score";
}

export interface OperatorEfficiency {
  readonly operator: string;
  readonly calls: number;
  readonly prompt_chars_p50: number;
  readonly prompt_chars_p90: number;
  readonly prompt_chars_p99: number;
  readonly tokens: number;
  /** Mean over runs (with any gain) of the operator's share of that run's validation gain. */
  readonly gain_share: number;
}

export interface SearchEfficiency {
  readonly runs: readonly RunEfficiency[];
  readonly operators: readonly OperatorEfficiency[];
  readonly nodes: MeanStd;
  readonly tokens: MeanStd;
  readonly records_per_ktoken: MeanStd;
}

const tokensOf = (c: EffCall) => (c.prompt_tokens ?? 0) + (c.completion_tokens ?? 0);

/**
 * Search-efficiency statistics over runs (docs/paper-map.md: Search efficiency): nodes, tokens, prompt-size
 * percentiles, records per token, gain shares. `humanRankOf(runId)`, when it gives a function for a run, maps that
 * run's validation scores to Human Rank on its task's leaderboard, the units of the late share.
 */
export function searchEfficiency(
  nodes: readonly EffNode[],
  calls: readonly EffCall[],
  higherIsBetter: (runId: string) => boolean,
  humanRankOf: (runId: string) => ((score: number) => number) | null = () => null,
): SearchEfficiency {
  const runIds = [...new Set([...nodes.map((n) => n.run_id), ...calls.map((c) => c.run_id)])].sort();
  const runs: RunEfficiency[] = runIds.map((run_id) => {
    const trace = recordTrace(
      nodes.filter((n) => n.run_id === run_id),
      higherIsBetter(run_id),
    );
    const tokens = calls.filter((c) => c.run_id === run_id).reduce((a, c) => a + tokensOf(c), 0);
    const records = trace.filter((t) => t.record).length;
    const total = trace.reduce((a, t) => a + t.gain, 0);
    const gain_share: Record<string, number> = {};
    if (total > 0)
      for (const t of trace) if (t.gain > 0) gain_share[t.operator] = (gain_share[t.operator] ?? 0) + t.gain / total;
    const hr = humanRankOf(run_id);
    const late = lateShare(trace, hr);
    return {
      run_id,
      nodes: trace.length,
      tokens,
      records,
      records_per_ktoken: tokens ? (1000 * records) / tokens : 0,
      gain_share,
      late_improve_crossover_share: late,
      gain_units: hr ? "human_rank" : "validation_score",
    };
  });
  const withGain = runs.filter((r) => Object.keys(r.gain_share).length);
  const ops = [
    ...new Set([...nodes.map((n) => n.operator), ...calls.flatMap((c) => (c.operator ? [c.operator] : []))]),
  ].sort();
  const operators = ops.map((operator) => {
    const oc = calls.filter((c) => c.operator === operator);
    const chars = oc.flatMap((c) => (c.prompt_chars === null ? [] : [c.prompt_chars]));
    return {
      operator,
      calls: oc.length,
      prompt_chars_p50: percentile(chars, 50),
      prompt_chars_p90: percentile(chars, 90),
      prompt_chars_p99: percentile(chars, 99),
      tokens: oc.reduce((a, c) => a + tokensOf(c), 0),
      gain_share: withGain.length
        ? withGain.reduce((a, r) => a + (r.gain_share[operator] ?? 0), 0) / withGain.length
        : 0,
    };
  });
  return {
    runs,
    operators,
    nodes: meanStd(runs.map((r) => r.nodes)),
    tokens: meanStd(runs.map((r) => r.tokens)),
    records_per_ktoken: meanStd(runs.map((r) => r.records_per_ktoken)),
  };
}

/**
 * Late Improve/Crossover share of one run's trace: gains of the records after the first valid node,
 * each gain = u(new best) − u(old best) with u = Human Rank (when `hr` is given) or |score difference|;
 * share = Σ gains of Improve/Crossover records / Σ all gains (null when the total is 0).
 */
export function lateShare(trace: readonly TracePoint[], hr: ((score: number) => number) | null): number | null {
  let prev: number | null = null;
  let total = 0;
  let ic = 0;
  for (const t of trace) {
    if (!t.record) continue;
    if (prev !== null) {
      const g = hr ? hr(t.best!) - hr(prev) : Math.abs(t.best! - prev);
      total += g;
      if (t.operator === "improve" || t.operator === "crossover") ic += g;
    }
    prev = t.best;
  }
  return total > 0 ? ic / total : null;
}

/** Totals of one harness over matched task-runs. */
export interface MatchedTotals {
  readonly runs: number;
  readonly nodes: number;
  readonly tokens: number;
  readonly records: number;
  /** Total records per 1,000 total tokens (0 without tokens). */
  readonly records_per_ktoken: number;
}

/**
 * The paper's efficiency table: task-runs matched across two harnesses (same task, seed and policy),
 * and per harness the totals over those task-runs (nodes, tokens, records, records per token of the
 * totals), not means of per-run ratios. Unmatched runs are left out.
 */
export function matchedEfficiency(
  eff: Pick<SearchEfficiency, "runs">,
  runs: readonly { run_id: string; harness: string; task_id: string; seed: number | null; policy?: string }[],
  a: string,
  b: string,
): { taskRuns: number; a: MatchedTotals; b: MatchedTotals } {
  const key = (r: (typeof runs)[number]) => `${r.task_id}\u0000${r.seed ?? ""}\u0000${r.policy ?? ""}`;
  const side = (h: string) => new Map(runs.filter((r) => r.harness === h).map((r) => [key(r), r.run_id]));
  const [ma, mb] = [side(a), side(b)];
  const keys = [...ma.keys()].filter((k) => mb.has(k));
  const byId = new Map(eff.runs.map((r) => [r.run_id, r]));
  const totals = (m: Map<string, string>): MatchedTotals => {
    const rs = keys.flatMap((k) => (byId.get(m.get(k)!) ? [byId.get(m.get(k)!)!] : []));
    const sum = (f: (r: RunEfficiency) => number) => rs.reduce((x, r) => x + f(r), 0);
    const tokens = sum((r) => r.tokens);
    const records = sum((r) => r.records);
    return {
      runs: rs.length,
      nodes: sum((r) => r.nodes),
      tokens,
      records,
      records_per_ktoken: tokens ? (1000 * records) / tokens : 0,
    };
  };
  return { taskRuns: keys.length, a: totals(ma), b: totals(mb) };
}

/** Relative change of b versus a in percent ((b − a)/|a|·100), as the paper reports harness comparisons. */
export function relativeChange(a: number, b: number): number {
  return a === 0 ? Number.NaN : ((b - a) / Math.abs(a)) * 100;
}
