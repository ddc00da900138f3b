import { z } from "zod";
import { twoStageBootstrap, type PairedBootstrapConfig, type PairedInterval } from "../../eval/index.js";
import { winProbability } from "./win-rate.js";

/** One program's (or run's) value on one held-out task, keyed by its draw so two generations pair up. */
export interface Drawn<V> {
  readonly taskId: string;
  /** The draw: a held-out draft's index (identical seeds per generation) or a search's seed. */
  readonly index: number;
  readonly value: V;
}
/** A draw's credit on the normalised scale (heldout-summary's `credit`). */
export type PairedValue = Drawn<number>;

/** Per task (sorted by id), the (a, b) values of the draws both generations have, in draw order. */
export function pairDraws<V>(a: readonly Drawn<V>[], b: readonly Drawn<V>[]): [string, [V, V][]][] {
  const key = (r: Drawn<V>) => `${r.taskId}\u0000${r.index}`;
  const bv = new Map(b.map((r) => [key(r), r]));
  const by = new Map<string, [number, V, V][]>();
  for (const r of a) {
    const y = bv.get(key(r));
    if (y) by.set(r.taskId, [...(by.get(r.taskId) ?? []), [r.index, r.value, y.value]]);
  }
  return [...by.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([t, rs]) => [t, rs.sort((p, q) => p[0] - q[0]).map(([, x, y]) => [x, y] as [V, V])]);
}

const meanOf = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * The paired generation difference of pairedGenerations (mean over tasks of the per-task mean credit difference),
 * with twoStageBootstrap's interval: tasks and each task's paired draws resampled, so draw noise widens it.
 */
export function twoStageGenerations(
  a: readonly PairedValue[],
  b: readonly PairedValue[],
  config: Partial<PairedBootstrapConfig> = {},
): PairedInterval | null {
  return twoStageBootstrap(
    pairDraws(a, b).map(([, ps]) => ps),
    (ps) => meanOf(ps.map(([x, y]) => x - y)),
    config,
  );
}

/**
 * pairedWinRate's per-task P(a ≻ b) − ½ (test scores; null = failed), with twoStageBootstrap's interval over tasks and
 * each task's paired draws.
 */
export function twoStageWinRate(
  a: readonly Drawn<number | null>[],
  b: readonly Drawn<number | null>[],
  higherIsBetter: (taskId: string) => boolean,
  config: Partial<PairedBootstrapConfig> = {},
): PairedInterval | null {
  const tasks = pairDraws(a, b);
  return twoStageBootstrap(
    tasks.map(([, ps]) => ps),
    (ps, i) =>
      winProbability(
        ps.map(([x]) => x),
        ps.map(([, y]) => y),
        higherIsBetter(tasks[i]![0]),
      )! - 0.5,
    config,
  );
}

export const NoiseSplitConfig = z
  .object({
    /** Normal quantile of the interval the projection mimics (1.96: the 95 % of the paired bootstrap). */
    z: z.number().positive().default(1.96),
  })
  .strict();

/** Where the variance of a paired generation difference comes from (noiseSplit). */
export interface NoiseSplit {
  /** Tasks with at least 2 paired draws. */
  readonly tasks: number;
  /** Mean paired draws per task (n̄). */
  readonly draws: number;
  /** D: the mean over tasks of the per-task mean difference. */
  readonly mean: number;
  /** V: variance of the per-task mean differences across tasks. */
  readonly observed: number;
  /** W: the part of V the draws' own spread explains (mean of s_t² / n_t). */
  readonly within: number;
  /** H = max(0, V − W): the tasks' true differences varying from task to task. */
  readonly between: number;
  /** Half-width now as the split models it, z · √((H + W) / T): never below what the draw noise alone gives. */
  readonly halfWidth: number;
  /** Tasks at today's draws for |D| to clear the half-width; null when D = 0. */
  readonly tasksNeeded: number | null;
  /** Draws per task at today's tasks for |D| to clear it; null when no number of draws can (H alone is too wide). */
  readonly drawsNeeded: number | null;
}

/**
 * Splits the variance of a paired difference between two generations into draw noise and task heterogeneity (the
 * method-of-moments random-effects split), and projects how many draws or tasks an effect of today's size needs:
 *
 *   d_ti = a_ti − b_ti over the draws i both generations have on task t (n_t ≥ 2 of them), d̄_t = mean_i d_ti,
 *   s_t² = Σ_i (d_ti − d̄_t)² / (n_t − 1),  D = mean_t d̄_t,  V = Σ_t (d̄_t − D)² / (T − 1),
 *   W = mean_t s_t² / n_t,  H = max(0, V − W),
 *   half-width(n, T) = z · √((H + W · n̄ / n) / T),
 *   tasks needed = ⌈z² (H + W) / D²⌉,  draws needed = ⌈W n̄ / (D² T / z² − H)⌉ (none when D² T / z² ≤ H).
 *
 * More draws shrink only W; only more tasks shrink H. When W exceeds V, the task figures agree more closely than
 * their own draws allow (a noisy task landed near the mean by chance): the split then keeps W, and a bootstrap over
 * tasks alone is narrower than the draws justify. null with fewer than 2 such tasks.
 */
export function noiseSplit(
  a: readonly PairedValue[],
  b: readonly PairedValue[],
  config: Partial<z.input<typeof NoiseSplitConfig>> = {},
): NoiseSplit | null {
  const { z: q } = NoiseSplitConfig.parse(config);
  const sampleVar = (xs: readonly number[]) => {
    const m = meanOf(xs);
    return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
  };
  const ds = pairDraws(a, b)
    .map(([, ps]) => ps.map(([x, y]) => x - y))
    .filter((d) => d.length >= 2);
  const T = ds.length;
  if (T < 2) return null;
  const dbar = ds.map(meanOf);
  const D = meanOf(dbar);
  const V = sampleVar(dbar);
  const W = meanOf(ds.map((d) => sampleVar(d) / d.length));
  const H = Math.max(0, V - W);
  const nbar = meanOf(ds.map((d) => d.length));
  const reach = (D * D * T) / (q * q) - H;
  return {
    tasks: T,
    draws: nbar,
    mean: D,
    observed: V,
    within: W,
    between: H,
    halfWidth: q * Math.sqrt((H + W) / T),
    tasksNeeded: D === 0 ? null : Math.ceil((q * q * (H + W)) / (D * D)),
    drawsNeeded: D === 0 || reach <= 0 ? null : Math.max(1, Math.ceil((W * nbar) / reach)),
  };
}

/** The projected half-width z · √((H + W · n̄ / draws) / tasks) at another number of draws and tasks. */
export function projectedHalfWidth(s: NoiseSplit, draws: number, tasks: number, zq = 1.96): number {
  return zq * Math.sqrt((s.between + (s.within * s.draws) / draws) / tasks);
}
