/**
 * Two sets of search runs compared on the hidden test, seeds as pairs (`openmle runs compare`).
 *
 *   pairs    = the (task, seed) keys both sets ran (a set with several runs of one key keeps the last by run id);
 *              a pair where a side has no valid submission (score null) is dropped and counted as failed;
 *   s        = +1 when the task's metric is higher-is-better, −1 otherwise;
 *   d        = s·(a − b) per pair: > 0 when set A's champion scored better on the hidden test;
 *   one task : the interval is on the mean of d over the pairs (metric units), bootstrapped over pairs;
 *   several  : d is made relative, r = s·(a − b)/|b| (b = 0: the pair is left out), averaged per task over its
 *              seeds, and the interval is on the mean over tasks (a share; 0.05 = A 5 % better), bootstrapped
 *              over tasks (pairedBootstrap), so a task with many seeds does not count more;
 *   wins / losses / ties count pairs by the sign of d.
 */
import { z } from "zod";
import type { RunOutcome } from "./evaluate-runs.js";
import { pairedBootstrap, type PairedInterval } from "./paired-bootstrap.js";

export const RunsCompareConfig = z
  .object({
    level: z.number().gt(0).lt(1).default(0.95).describe("Coverage of the bootstrap interval."),
    resamples: z.number().int().min(100).default(10000).describe("Bootstrap resamples."),
    seed: z.number().int().default(1).describe("Seed of the resampling (the interval is reproducible)."),
  })
  .strict();
export type RunsCompareConfig = z.infer<typeof RunsCompareConfig>;

export interface ComparedPair {
  readonly task_id: string;
  readonly seed: number | null;
  readonly a_run: string;
  readonly b_run: string;
  readonly a: number;
  readonly b: number;
  /** s·(a − b): > 0 = A better, metric units. */
  readonly d: number;
}

export interface RunsComparison {
  readonly pairs: ComparedPair[];
  /** Keys both sets ran where a side has no valid submission: not in `pairs`. */
  readonly failed: { readonly a: number; readonly b: number };
  /** Runs of a set whose (task, seed) the other set did not run. */
  readonly unpaired: { readonly a: number; readonly b: number };
  readonly tasks: number;
  /** "metric units" (one task) or "relative" (several: s·(a − b)/|b| averaged per task). */
  readonly scale: "metric units" | "relative";
  readonly interval: PairedInterval | null;
  readonly wins: number;
  readonly losses: number;
  readonly ties: number;
  readonly level: number;
}

const key = (r: RunOutcome) => `${r.task_id}\u0000${r.seed ?? ""}`;
function byKey(runs: readonly RunOutcome[]): Map<string, RunOutcome> {
  const m = new Map<string, RunOutcome>();
  for (const r of [...runs].sort((x, y) => x.run_id.localeCompare(y.run_id))) m.set(key(r), r);
  return m;
}

/** The paired comparison of run sets A and B (rules above). */
export function compareRuns(
  a: readonly RunOutcome[],
  b: readonly RunOutcome[],
  config: Partial<RunsCompareConfig> = {},
): RunsComparison {
  const c = RunsCompareConfig.parse(config);
  const [ma, mb] = [byKey(a), byKey(b)];
  const pairs: ComparedPair[] = [];
  const failed = { a: 0, b: 0 };
  for (const [k, ra] of ma) {
    const rb = mb.get(k);
    if (!rb) continue;
    if (ra.score === null || rb.score === null) {
      if (ra.score === null) failed.a++;
      if (rb.score === null) failed.b++;
      continue;
    }
    const s = ra.higher_is_better ? 1 : -1;
    pairs.push({
      task_id: ra.task_id,
      seed: ra.seed,
      a_run: ra.run_id,
      b_run: rb.run_id,
      a: ra.score,
      b: rb.score,
      d: s * (ra.score - rb.score) || 0 /* no −0 */,
    });
  }
  const unpaired = {
    a: [...ma.keys()].filter((k) => !mb.has(k)).length,
    b: [...mb.keys()].filter((k) => !ma.has(k)).length,
  };
  const tasks = [...new Set(pairs.map((p) => p.task_id))];
  const boot = { level: c.level, resamples: c.resamples, seed: c.seed };
  let interval: PairedInterval | null;
  if (tasks.length <= 1)
    interval = pairedBootstrap(
      pairs.map((p) => p.d),
      boot,
    );
  else {
    const perTask = tasks.map((t) => {
      const rel = pairs.filter((p) => p.task_id === t && p.b !== 0).map((p) => p.d / Math.abs(p.b));
      return rel.length ? rel.reduce((x, y) => x + y, 0) / rel.length : Number.NaN;
    });
    interval = pairedBootstrap(perTask, boot);
  }
  return {
    pairs,
    failed,
    unpaired,
    tasks: tasks.length,
    scale: tasks.length <= 1 ? "metric units" : "relative",
    interval,
    wins: pairs.filter((p) => p.d > 0).length,
    losses: pairs.filter((p) => p.d < 0).length,
    ties: pairs.filter((p) => p.d === 0).length,
    level: c.level,
  };
}
