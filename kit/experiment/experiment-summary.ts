// What a run's cells say: the plan's measures per arm, the decision rule's verdict, and a per-task table (pure).
import type { Baselines } from "../erl/index.js";
import { armMeasures, decide, type CellOutcome, type Verdict } from "./arm-measures.js";
import type { Measure, ResolvedPlan } from "./experiment-plan.js";

/** experiment_runs.summary: the baselines the cells were normalised under, then the measures and the verdict. */
export interface ExperimentSummary {
  readonly baselines: Baselines;
  /** Arm → measure → value (null where no task measures it). */
  readonly measures?: Readonly<Record<string, Partial<Record<Measure, number | null>>>>;
  readonly verdict?: Verdict;
  /** Cells the run holds. */
  readonly cells?: number;
}

/** One arm on one task: its cells in a line. */
export interface TaskLine {
  readonly taskId: string;
  readonly arm: string;
  readonly n: number;
  /** Share of cells with a graded test score. */
  readonly validRate: number;
  /** Mean graded test score (metric units); null when none graded. */
  readonly meanTest: number | null;
  /** Cells with a medal; null without a leaderboard. */
  readonly medals: number | null;
  /** Mean Human Rank (failed cells 0); null without a leaderboard. */
  readonly humanRank: number | null;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

/**
 * The measures of every arm (armMeasures, the win rate against the decision's arm B) and the verdict of the
 * decision rule on A − B (decide, seeded with the plan's seed).
 */
export function summarizeCells(
  plan: ResolvedPlan,
  cells: readonly CellOutcome[],
  higherIsBetter: (taskId: string) => boolean,
): { measures: Record<string, Partial<Record<Measure, number | null>>>; verdict: Verdict } {
  const of = (arm: string) => cells.filter((c) => c.arm === arm);
  const [a, b] = plan.decision.comparison;
  const reference = { arm: b, cells: of(b) };
  const measures = Object.fromEntries(
    plan.arms.map((arm) => [arm.name, armMeasures(arm.name, of(arm.name), plan.measures, reference, higherIsBetter)]),
  );
  return { measures, verdict: decide(plan.decision, of(a), of(b), higherIsBetter, plan.seed) };
}

/** Per task and arm (plan order), the cells' valid rate, mean test score, medals and mean Human Rank. */
export function taskLines(plan: ResolvedPlan, cells: readonly CellOutcome[]): TaskLine[] {
  return plan.tasks.flatMap((t) =>
    plan.arms.flatMap((arm) => {
      const cs = cells.filter((c) => c.taskId === t.id && c.arm === arm.name);
      if (!cs.length) return [];
      const graded = cs.flatMap((c) => (c.valid && c.testScore !== null ? [c.testScore] : []));
      const board = cs.some((c) => c.medal !== null);
      return [
        {
          taskId: t.id,
          arm: arm.name,
          n: cs.length,
          validRate: graded.length / cs.length,
          meanTest: mean(graded),
          medals: board ? cs.filter((c) => c.medal !== null && c.medal !== "none").length : null,
          humanRank: board ? mean(cs.map((c) => (c.valid ? (c.humanRank ?? 0) : 0))) : null,
        },
      ];
    }),
  );
}

const f = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(3));

/** The verdict in one line, e.g. "A − B on human_rank: 0.120 [0.041, 0.210] (90 % interval, 40 tasks): supported". */
export function verdictLine(v: Verdict): string {
  const [a, b] = v.comparison;
  const claim = v.direction === "greater" ? "> 0" : v.direction === "less" ? "< 0" : "≠ 0";
  const iv = v.interval;
  return (
    `${a} − ${b} on ${v.measure}: ` +
    (iv
      ? `${f(iv.mean)} [${f(iv.lo)}, ${f(iv.hi)}] (${Math.round(v.level * 100)} % interval, ` +
        `${iv.n} task${iv.n === 1 ? "" : "s"})`
      : "no task measured by both arms") +
    `; claim ${claim} at α ${v.alpha}: ${v.verdict}`
  );
}
