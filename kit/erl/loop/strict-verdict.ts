import type { PairedInterval } from "../../eval/index.js";
import type { HeldoutMeasure, PairedReadings, TwoIntervals } from "./heldout-summary.js";

/** What one comparison A − B says under the strict rule. */
export interface StrictVerdict {
  /** beats: some measure beats and none is worse; worse: the reverse; mixed: both; level: neither; unmeasured: no
   * measure has every interval of every estimator. */
  readonly verdict: "beats" | "worse" | "mixed" | "level" | "unmeasured";
  /** The measures on which A beats B, and on which A is worse. */
  readonly beatsOn: readonly HeldoutMeasure[];
  readonly worseOn: readonly HeldoutMeasure[];
}

/**
 * The benchmark's rule for "A beats B" on held-out rows (bench/erl/runs/2026-12-05-learning-11-noise.md and the records
 * after it), for the estimates E_m of measure m (one per estimator: direct, pooled off-policy), each a pair of
 * intervals:
 *   beats(m) ⇔ E_m ≠ ∅ and ∀ e ∈ E_m: e.tasks.lo > 0 ∧ e.withDraws.lo > 0
 *   worse(m) ⇔ E_m ≠ ∅ and ∀ e ∈ E_m: e.tasks.hi < 0 ∧ e.withDraws.hi < 0
 * A beats B when beats(m) holds for some measure (win rate or score) and worse(m′) for none. A measure where any
 * estimate lacks an interval (no task measured) decides nothing; with no measure left the comparison is unmeasured.
 */
export function strictVerdict(estimates: Partial<Record<HeldoutMeasure, readonly TwoIntervals[]>>): StrictVerdict {
  const complete = (es: readonly TwoIntervals[] | undefined): es is readonly TwoIntervals[] =>
    !!es && es.length > 0 && es.every((e) => e.tasks !== null && e.withDraws !== null);
  const measures = (["win", "score"] as const).filter((m) => complete(estimates[m]));
  const all = (m: HeldoutMeasure, ok: (i: PairedInterval) => boolean) =>
    estimates[m]!.every((e) => ok(e.tasks!) && ok(e.withDraws!));
  const beatsOn = measures.filter((m) => all(m, (i) => i.lo > 0));
  const worseOn = measures.filter((m) => all(m, (i) => i.hi < 0));
  const verdict = !measures.length
    ? "unmeasured"
    : beatsOn.length && worseOn.length
      ? "mixed"
      : beatsOn.length
        ? "beats"
        : worseOn.length
          ? "worse"
          : "level";
  return { verdict, beatsOn, worseOn };
}

/** strictVerdict on the direct estimator alone: one comparison's `pairedReadings`. */
export const directVerdict = (r: PairedReadings): StrictVerdict => strictVerdict({ win: [r.win], score: [r.score] });

/** The verdict in words: "beats on win", "worse on score", "mixed (beats on win, worse on score)", "level". */
export function describeVerdict(v: StrictVerdict): string {
  const beats = v.beatsOn.length ? `beats on ${v.beatsOn.join(" and ")}` : "";
  const worse = v.worseOn.length ? `worse on ${v.worseOn.join(" and ")}` : "";
  return v.verdict === "mixed" ? `mixed (${beats}, ${worse})` : beats || worse || v.verdict;
}
