import { z } from "zod";
import { logSoftmax, type GrammarChoice, type GrammarParams, type OptionFeatures } from "../../policy/grammar/index.js";

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

/** What `policyKl` lists (the mean is always over every probe). */
export const PolicyKlConfig = z
  .object({
    minKl: z
      .number()
      .min(0)
      .default(1e-12)
      .describe(
        "Situations with KL(p_A ‖ p_B) below this are left out of the list (still counted in the mean); the " +
          "default leaves out only the unchanged ones.",
      ),
  })
  .strict();
export type PolicyKlConfig = z.infer<typeof PolicyKlConfig>;
export type PolicyKlConfigInput = z.input<typeof PolicyKlConfig>;

/** One decision situation scored under param sets A and B. */
export interface SituationKl {
  /** `<operator>.<modality>.<decision>`. */
  readonly decision: string;
  /** The decision features of the situation (decision-features.ts), as recorded. */
  readonly features: readonly string[];
  readonly options: readonly string[];
  /** The options' context labels (option-features.ts), as recorded; empty when none. */
  readonly optionFeatures: OptionFeatures;
  readonly pA: readonly number[];
  readonly pB: readonly number[];
  /** KL(p_A ‖ p_B) in nats. */
  readonly kl: number;
  /** Total variation ½ Σ |p_B − p_A|. */
  readonly tv: number;
  /** The option whose probability moved most (argmax |p_B − p_A|), and its p under A and B. */
  readonly topOption: string;
  readonly topA: number;
  readonly topB: number;
  /** How many probes fell in this situation. */
  readonly count: number;
  /** This situation's part of the mean: count · kl / Σ count · kl (0 when A = B everywhere). */
  readonly share: number;
}

/** How far param set B is from A on a set of probe decisions. */
export interface PolicyKl {
  /** Count-weighted mean KL(p_A ‖ p_B) over the probes, in nats per decision. */
  readonly meanKl: number;
  /** Count-weighted mean total variation over the probes. */
  readonly meanTv: number;
  /** Probes with at least two options (one-option decisions are not choices and are left out). */
  readonly probes: number;
  /** Situations, largest share of the mean first (then decision name). */
  readonly situations: readonly SituationKl[];
}

const labelsKey = (options: readonly string[], of: OptionFeatures | undefined) =>
  of ? options.map((o) => (of[o] ?? []).join("+")).join("|") : "";

/**
 * KL divergence between two grammar param sets, measured on recorded decisions ("how far a generation moved").
 * Each probe is a recorded GrammarChoice; probes with the same (decision d, features F, options O, context
 * labels L) are one situation s with count n_s. Its distribution under θ ∈ {A, B} is the chooser's:
 *
 *     p_θ(o | s) = softmax_o z_θ(o | d, F, L)        (params.ts logSoftmax, with the recorded option labels)
 *     KL_s = KL(p_A ‖ p_B) = Σ_o p_A(o|s) · (log p_A(o|s) − log p_B(o|s))     (natural log: nats)
 *     TV_s = ½ Σ_o |p_B(o|s) − p_A(o|s)|
 *     mean KL = Σ_s n_s KL_s / Σ_s n_s,   share_s = n_s KL_s / Σ_s' n_s' KL_s'
 *
 * Direction: A is the reference (the earlier generation; the probes are its decisions or drafts sampled from
 * it). KL(p_A ‖ p_B) is the expectation under A of log(p_A / p_B): by the chain rule, summed over the decisions
 * of a program sampled from A it is the KL between the two policies' program distributions for that task, so
 * mean KL × decisions per program estimates it per program. It is finite, as softmax gives every option p > 0;
 * it is not symmetric (swap A and B to read the other way). Context labels count only where the params read
 * them (version 3), as in the chooser. One-option decisions are left out (KL 0, and not a choice).
 */
export function policyKl(
  a: GrammarParams,
  b: GrammarParams,
  probes: readonly GrammarChoice[],
  config: PolicyKlConfigInput = {},
): PolicyKl {
  const cfg = PolicyKlConfig.parse(config);
  const seen = new Map<string, { c: GrammarChoice; count: number }>();
  for (const c of probes) {
    if (c.options.length < 2) continue;
    const key = [
      c.name,
      (c.features ?? []).join(","),
      c.options.join(","),
      labelsKey(c.options, c.optionFeatures),
    ].join("\u0000");
    const s = seen.get(key);
    if (s) s.count++;
    else seen.set(key, { c, count: 1 });
  }
  const rows: Omit<SituationKl, "share">[] = [];
  for (const { c, count } of seen.values()) {
    const f = c.features ?? [];
    const la = logSoftmax(a, c.name, c.options, f, c.optionFeatures);
    const lb = logSoftmax(b, c.name, c.options, f, c.optionFeatures);
    const pA = la.map(Math.exp);
    const pB = lb.map(Math.exp);
    const kl = Math.max(
      0,
      la.reduce((s, v, i) => s + pA[i]! * (v - lb[i]!), 0),
    );
    const tv = pA.reduce((s, v, i) => s + Math.abs(pB[i]! - v), 0) / 2;
    let k = 0;
    pA.forEach((v, i) => {
      if (Math.abs(pB[i]! - v) > Math.abs(pB[k]! - pA[k]!)) k = i;
    });
    rows.push({
      decision: c.name,
      features: [...f],
      options: [...c.options],
      optionFeatures: c.optionFeatures ?? {},
      pA,
      pB,
      kl,
      tv,
      topOption: c.options[k]!,
      topA: pA[k]!,
      topB: pB[k]!,
      count,
    });
  }
  const n = rows.reduce((t, r) => t + r.count, 0);
  const mass = rows.reduce((t, r) => t + r.count * r.kl, 0);
  const situations = rows
    .filter((r) => r.kl >= cfg.minKl)
    .map((r) => ({ ...r, share: mass > 0 ? (r.count * r.kl) / mass : 0 }))
    .sort((x, y) => y.share - x.share || y.kl - x.kl || x.decision.localeCompare(y.decision));
  return {
    meanKl: n ? mass / n : 0,
    meanTv: n ? rows.reduce((t, r) => t + r.count * r.tv, 0) / n : 0,
    probes: n,
    situations,
  };
}
