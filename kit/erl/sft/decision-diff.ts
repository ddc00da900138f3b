import { logSoftmax, type GrammarChoice, type GrammarParams } from "../../policy/grammar/index.js";

/** One decision situation (name, options, features) with its option probabilities under two param sets. */
export interface DecisionShift {
  /** `<operator>.<modality>.<decision>`. */
  readonly decision: string;
  /** The decision features of the situation, joined with ", " ("" when none). */
  readonly features: string;
  readonly options: readonly string[];
  readonly before: readonly number[];
  readonly after: readonly number[];
  /** Total variation distance ½ Σ |after − before| (0 = unchanged, 1 = disjoint). */
  readonly tv: number;
  /** The option whose probability moved most, and by how much (signed). */
  readonly topOption: string;
  readonly topDelta: number;
  /** How many probes fell in this situation. */
  readonly count: number;
}

/**
 * Which decisions two param sets disagree on, and by how much. The probes are recorded choices
 * (e.g. the decisions of a run's programs, or drafts sampled on held-out tasks): each distinct
 * situation (decision, features, options) is scored under both param sets:
 *
 *     tv = ½ Σ_o |p_after(o) − p_before(o)|,  top = argmax_o |p_after(o) − p_before(o)|
 *
 * Sorted by tv, largest first; situations with tv < `minTv` are left out.
 */
export function diffDecisions(
  before: GrammarParams,
  after: GrammarParams,
  probes: readonly GrammarChoice[],
  opts: { minTv?: number } = {},
): DecisionShift[] {
  const seen = new Map<string, { c: GrammarChoice; count: number }>();
  for (const c of probes) {
    const key = `${c.name}\u0000${(c.features ?? []).join(",")}\u0000${c.options.join(",")}`;
    const s = seen.get(key);
    if (s) s.count++;
    else seen.set(key, { c, count: 1 });
  }
  const out: DecisionShift[] = [];
  for (const { c, count } of seen.values()) {
    if (c.options.length < 2) continue;
    const f = c.features ?? [];
    const b = logSoftmax(before, c.name, c.options, f).map(Math.exp);
    const a = logSoftmax(after, c.name, c.options, f).map(Math.exp);
    const d = a.map((v, i) => v - b[i]!);
    const tv = d.reduce((s, v) => s + Math.abs(v), 0) / 2;
    if (tv < (opts.minTv ?? 1e-9)) continue;
    let k = 0;
    d.forEach((v, i) => {
      if (Math.abs(v) > Math.abs(d[k]!)) k = i;
    });
    out.push({
      decision: c.name,
      features: f.join(", "),
      options: [...c.options],
      before: b,
      after: a,
      tv,
      topOption: c.options[k]!,
      topDelta: d[k]!,
      count,
    });
  }
  return out.sort((x, y) => y.tv - x.tv || x.decision.localeCompare(y.decision));
}

/** The shifts merged per decision name (count-weighted mean tv over its situations), largest first. */
export function summariseShifts(
  shifts: readonly DecisionShift[],
): { decision: string; meanTv: number; maxTv: number; situations: number; topOption: string; topDelta: number }[] {
  const by = new Map<string, DecisionShift[]>();
  for (const s of shifts) by.set(s.decision, [...(by.get(s.decision) ?? []), s]);
  return [...by.entries()]
    .map(([decision, ss]) => {
      const n = ss.reduce((t, s) => t + s.count, 0);
      const top = ss.reduce((m, s) => (s.tv > m.tv ? s : m), ss[0]!);
      return {
        decision,
        meanTv: ss.reduce((t, s) => t + s.tv * s.count, 0) / n,
        maxTv: top.tv,
        situations: ss.length,
        topOption: top.topOption,
        topDelta: top.topDelta,
      };
    })
    .sort((a, b) => b.meanTv - a.meanTv || a.decision.localeCompare(b.decision));
}
