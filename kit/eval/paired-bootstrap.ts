import { z } from "zod";
import { createRng } from "../util/index.js";
import { percentile } from "./mean-std.js";

export const PairedBootstrapConfig = z
  .object({
    resamples: z.number().int().min(100).default(10000).describe("Bootstrap resamples of the tasks."),
    level: z.number().gt(0).lt(1).default(0.95).describe("Coverage of the percentile interval."),
    seed: z.number().int().default(1).describe("Seed of the resampling (the interval is reproducible)."),
  })
  .strict();
export type PairedBootstrapConfig = z.infer<typeof PairedBootstrapConfig>;

export interface PairedInterval {
  /** Tasks with both arms measured. */
  readonly n: number;
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
  /** Tasks where arm A is ahead / behind / level. */
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
}

/**
 * Paired comparison of two arms over tasks (pure, seeded): d_i = a_i − b_i per task (each the mean over the
 * task's seeds, which both arms share), mean d̄ = Σ d_i / n, and a percentile bootstrap interval over tasks:
 * R resamples of n tasks with replacement, the (1 − level)/2 and (1 + level)/2 percentiles of their means.
 * The interval excludes 0 when lo > 0 or hi < 0. null when no task has both arms.
 */
export function pairedBootstrap(
  diffs: readonly number[],
  config: Partial<PairedBootstrapConfig> = {},
): PairedInterval | null {
  const c = PairedBootstrapConfig.parse(config);
  const d = diffs.filter(Number.isFinite);
  const n = d.length;
  if (n === 0) return null;
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const rng = createRng(c.seed);
  const means: number[] = [];
  for (let r = 0; r < c.resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += d[rng.int(n)]!;
    means.push(s / n);
  }
  const tail = ((1 - c.level) / 2) * 100;
  return {
    n,
    mean,
    lo: percentile(means, tail),
    hi: percentile(means, 100 - tail),
    wins: d.filter((x) => x > 0).length,
    losses: d.filter((x) => x < 0).length,
    ties: d.filter((x) => x === 0).length,
  };
}
