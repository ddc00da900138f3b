import type { Rng } from "../../util/rng.js";
import { sampleIndex } from "../../util/rng.js";

/**
 * Parent-state fitness for RL (docs/paper-map.md: RL mechanisms), over one task's stored programs:
 *   fitness = mm(reward) + mm′(variance of the program's children's rewards) + mm(1 − visits/max_visits)
 * mm: min-max over the task's programs (0.5 for all when constant); mm′: the same over the programs
 * that have children (0.5 for those without; one child gives variance 0, population variance);
 * max_visits = the most visits of any of the task's programs (cool = 1 for all when none was visited).
 * Visits count every time a program was chosen as a parent, crossover parents included.
 */
export interface ParentStats {
  readonly reward: number;
  readonly childRewards: readonly number[];
  readonly visits: number;
}

export function minMaxOrHalf(xs: readonly number[]): number[] {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0.5));
}

export function variance(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / xs.length;
}

/** One fitness per program, in input order (empty → empty). */
export function parentFitness(states: readonly ParentStats[]): number[] {
  if (states.length === 0) return [];
  const r = minMaxOrHalf(states.map((s) => s.reward));
  const withKids = states.map((s, i) => [s, i] as const).filter(([s]) => s.childRewards.length > 0);
  const v = states.map(() => 0.5);
  if (withKids.length) {
    const mmv = minMaxOrHalf(withKids.map(([s]) => variance(s.childRewards)));
    withKids.forEach(([, i], k) => (v[i] = mmv[k]!));
  }
  const maxVisits = Math.max(...states.map((s) => s.visits));
  const cool = minMaxOrHalf(states.map((s) => (maxVisits > 0 ? 1 - s.visits / maxVisits : 1)));
  return states.map((_, i) => r[i]! + v[i]! + cool[i]!);
}

/** Which stored programs an operator may use as parents: improve/crossover reward > 0, debug reward ≤ 0. */
export function eligibleParents<T extends ParentStats>(
  states: readonly T[],
  operator: "improve" | "debug" | "crossover",
): T[] {
  return states.filter((s) => (operator === "debug" ? s.reward <= 0 : s.reward > 0));
}

/**
 * Draw `n` distinct parents with probability ∝ fitness (fitness over all of the task's states, the
 * draw among the eligible ones). Fewer eligible than n → as many as there are.
 */
export function drawParents<T extends ParentStats>(
  states: readonly T[],
  operator: "improve" | "debug" | "crossover",
  n: number,
  rng: Rng,
): T[] {
  const fit = parentFitness(states);
  const pool = states.map((s, i) => ({ s, f: fit[i]! })).filter(({ s }) => eligibleParents([s], operator).length > 0);
  const out: T[] = [];
  while (out.length < n && pool.length) {
    const k = sampleIndex(
      rng,
      pool.map((p) => p.f),
    );
    out.push(pool[k]!.s);
    pool.splice(k, 1);
  }
  return out;
}

/** The `keep` fittest states (stable for ties), in their original order. */
export function keepTop<T extends ParentStats>(states: readonly T[], keep = 10): T[] {
  const fit = parentFitness(states);
  const idx = states
    .map((_, i) => i)
    .sort((a, b) => fit[b]! - fit[a]! || a - b)
    .slice(0, keep)
    .sort((a, b) => a - b);
  return idx.map((i) => states[i]!);
}
