import { pairedBootstrap, type PairedInterval } from "../../eval/index.js";

/** What the win rate reads of one program (a held-out draft) or run (a held-out search's champion). */
export interface WinRow {
  readonly taskId: string;
  /** The graded test score; null for a program that failed or was not graded. */
  readonly testScore: number | null;
}

/**
 * Probability that a program of arm A beats one of arm B on one task (the common-language effect size, Mann–Whitney
 * U / (n_a · n_b)):
 *
 *     P = (1 / (n_a · n_b)) Σ_i Σ_j [ 1(a_i ≻ b_j) + ½ · 1(a_i ~ b_j) ]
 *
 * where a graded program ≻ a failed one, two failed ones tie, and two graded ones compare by test score in the
 * task's direction (equal scores tie). P ∈ [0, 1]; ½ = level. null when either arm has no program.
 */
export function winProbability(
  a: readonly (number | null)[],
  b: readonly (number | null)[],
  higherIsBetter: boolean,
): number | null {
  if (a.length === 0 || b.length === 0) return null;
  const sign = higherIsBetter ? 1 : -1;
  const cmp = (x: number | null, y: number | null): number =>
    x === null ? (y === null ? 0 : -1) : y === null ? 1 : Math.sign(sign * (x - y));
  let s = 0;
  for (const x of a) for (const y of b) s += (cmp(x, y) + 1) / 2;
  return s / (a.length * b.length);
}

/**
 * Paired win rate of arm A over arm B across tasks: d_t = P_t(A ≻ B) − ½ ∈ [−½, ½] for every task both arms have
 * programs on, mean d̄ with kit/eval's percentile bootstrap over tasks ("A beats B" when lo > 0). Beside the mean
 * normalised score it weighs every task the same whatever its score's scale or its reference's strength, and tasks
 * without a normalised score count too, so one task with a weak reference cannot carry the mean.
 */
export function pairedWinRate(
  a: readonly WinRow[],
  b: readonly WinRow[],
  higherIsBetter: (taskId: string) => boolean,
): PairedInterval | null {
  const group = (rows: readonly WinRow[]) => {
    const m = new Map<string, (number | null)[]>();
    for (const r of rows) m.set(r.taskId, [...(m.get(r.taskId) ?? []), r.testScore]);
    return m;
  };
  const [ga, gb] = [group(a), group(b)];
  const d = [...ga.keys()].sort().flatMap((t) => {
    const p = gb.has(t) ? winProbability(ga.get(t)!, gb.get(t)!, higherIsBetter(t)) : null;
    return p === null ? [] : [p - 0.5];
  });
  return pairedBootstrap(d);
}
