// The plan's measures per arm and the decision rule's verdict, from the stored cells (pure).
import { credit, winProbability } from "../erl/index.js";
import { median, pairedBootstrap, type PairedInterval } from "../eval/index.js";
import type { DecisionRule, Measure } from "./experiment-plan.js";

export type Medal = "gold" | "silver" | "bronze" | "none";

/** One cell's outcome (a draft, or a search seed's champion), as experiment_results stores it. */
export interface CellOutcome {
  readonly arm: string;
  readonly taskId: string;
  /** The draw index (drafts) or seed (search). */
  readonly draw: number;
  /** A graded hidden test score exists. */
  readonly valid: boolean;
  readonly testScore: number | null;
  /** The task has a normalised score (trivial and reference baselines, the reference beating the trivial). */
  readonly normalisable: boolean;
  readonly normalized: number | null;
  /** The grade on the task's leaderboard; null when the task has none. */
  readonly medal: Medal | null;
  /** Human Rank on the task's leaderboard (0 for a failed cell); null when the task has none. */
  readonly humanRank: number | null;
}

/**
 * One cell's value on a per-draw measure (null: the measure does not apply to the task):
 *   valid_rate            1 if valid else 0
 *   medal_average         1 if a medal (gold, silver, bronze) else 0; null without a leaderboard
 *   human_rank            Human Rank, 0 for a failed cell; null without a leaderboard
 *   normalized, median_score  credit = max(0, normalised) if valid, else 0 (kit/erl credit); null when the task
 *                         has no normalised score
 */
export function drawValue(measure: Exclude<Measure, "win_rate">, c: CellOutcome): number | null {
  if (measure === "valid_rate") return c.valid ? 1 : 0;
  if (measure === "medal_average") return c.medal === null ? null : c.medal === "none" ? 0 : 1;
  if (measure === "human_rank") return c.humanRank === null ? null : c.valid ? c.humanRank : 0;
  return c.normalisable ? credit(c.valid, c.normalized) : null;
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Each task's values of `measure` (null values dropped; tasks left with none dropped), tasks sorted by id. */
export function taskValues(
  measure: Exclude<Measure, "win_rate">,
  cells: readonly CellOutcome[],
): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const c of [...cells].sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : a.draw - b.draw))) {
    const v = drawValue(measure, c);
    if (v !== null) out.set(c.taskId, [...(out.get(c.taskId) ?? []), v]);
  }
  return out;
}

/** A task's summary of one arm: the mean of its values, the median for median_score. */
const taskStat = (measure: Measure, xs: readonly number[]) => (measure === "median_score" ? median(xs) : mean(xs));

/**
 * Per-task paired differences d_t of arm A over arm B on the tasks both measure, sorted by task id:
 *   win_rate      d_t = P_t(A ≻ B) − ½ (kit/erl winProbability over the cells' test scores, failed < graded)
 *   median_score  d_t = median_i a_{t,i} − median_i b_{t,i}
 *   otherwise     d_t = mean_i a_{t,i} − mean_i b_{t,i} (drawValue)
 */
export function taskDiffs(
  measure: Measure,
  a: readonly CellOutcome[],
  b: readonly CellOutcome[],
  higherIsBetter: (taskId: string) => boolean,
): { readonly taskId: string; readonly d: number }[] {
  if (measure === "win_rate") {
    const scores = (cs: readonly CellOutcome[], t: string) => cs.filter((c) => c.taskId === t).map((c) => c.testScore);
    const tasks = [...new Set(a.map((c) => c.taskId))].filter((t) => b.some((c) => c.taskId === t)).sort();
    return tasks.flatMap((t) => {
      const p = winProbability(scores(a, t), scores(b, t), higherIsBetter(t));
      return p === null ? [] : [{ taskId: t, d: p - 0.5 }];
    });
  }
  const [va, vb] = [taskValues(measure, a), taskValues(measure, b)];
  return [...va.keys()]
    .filter((t) => vb.has(t))
    .map((t) => ({ taskId: t, d: taskStat(measure, va.get(t)!) - taskStat(measure, vb.get(t)!) }));
}

/**
 * One arm's value of each measure over the plan's tasks (null where no task measures it):
 *   per-draw measures  mean over tasks of the task's mean (median_score: median over tasks of the task's median)
 *   win_rate           mean over tasks of P_t(arm ≻ reference) (½ = level), against the decision's arm B; null for B
 */
export function armMeasures(
  arm: string,
  cells: readonly CellOutcome[],
  measures: readonly Measure[],
  reference: { readonly arm: string; readonly cells: readonly CellOutcome[] },
  higherIsBetter: (taskId: string) => boolean,
): Partial<Record<Measure, number | null>> {
  const out: Partial<Record<Measure, number | null>> = {};
  for (const m of measures) {
    if (m === "win_rate") {
      const d = arm === reference.arm ? [] : taskDiffs(m, cells, reference.cells, higherIsBetter);
      out[m] = d.length ? 0.5 + mean(d.map((x) => x.d)) : null;
      continue;
    }
    const per = [...taskValues(m, cells).values()].map((xs) => taskStat(m, xs));
    out[m] = per.length ? (m === "median_score" ? median(per) : mean(per)) : null;
  }
  return out;
}

/** The decision rule's outcome. */
export interface Verdict {
  /** supported: the interval excludes 0 on the claimed side; not-supported: it does not; unmeasured: no task. */
  readonly verdict: "supported" | "not-supported" | "unmeasured";
  readonly measure: Measure;
  readonly comparison: readonly [string, string];
  readonly direction: DecisionRule["direction"];
  readonly alpha: number;
  /** Coverage of the bootstrap interval: 1 − α two-sided, 1 − 2α one-sided (its lower or upper end is the bound). */
  readonly level: number;
  readonly interval: PairedInterval | null;
}

/**
 * The decision rule on A − B: d_t = taskDiffs(measure, A, B), the percentile bootstrap over tasks (kit/eval
 * pairedBootstrap, seeded with the plan's seed) at level 1 − α (two-sided) or 1 − 2α (one-sided), and
 *   greater    supported ⇔ lo > 0
 *   less       supported ⇔ hi < 0
 *   two-sided  supported ⇔ lo > 0 ∨ hi < 0
 */
export function decide(
  rule: DecisionRule,
  a: readonly CellOutcome[],
  b: readonly CellOutcome[],
  higherIsBetter: (taskId: string) => boolean,
  seed: number,
): Verdict {
  const level = rule.direction === "two-sided" ? 1 - rule.alpha : 1 - 2 * rule.alpha;
  const d = taskDiffs(rule.measure, a, b, higherIsBetter).map((x) => x.d);
  const interval = pairedBootstrap(d, { level, seed });
  const holds = !interval
    ? null
    : rule.direction === "greater"
      ? interval.lo > 0
      : rule.direction === "less"
        ? interval.hi < 0
        : interval.lo > 0 || interval.hi < 0;
  return {
    verdict: holds === null ? "unmeasured" : holds ? "supported" : "not-supported",
    measure: rule.measure,
    comparison: rule.comparison,
    direction: rule.direction,
    alpha: rule.alpha,
    level,
    interval,
  };
}
