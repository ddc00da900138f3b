import { pairedBootstrap, type PairedInterval } from "../../eval/index.js";
import type { HeldoutDraftRow } from "./heldout-drafts-store.js";
import type { HeldoutRow } from "./heldout-store.js";
import { twoStageGenerations, twoStageWinRate, type Drawn, type PairedValue } from "./heldout-noise.js";
import { pairedWinRate } from "./win-rate.js";

/** One held-out task's figure of one generation (policy or search level). */
export interface TaskFigure {
  readonly taskId: string;
  /** Programs (policy level: drafts) or runs (search level: seeds) behind the figure. */
  readonly n: number;
  /** Share of them with a graded test score. */
  readonly validRate: number;
  /** Mean credited normalised score (`credit`); null when the task has no normalised score (no baselines). */
  readonly score: number | null;
}

/**
 * The credit of one program toward a task's figure, on the normalised scale (0 = trivial, 1 = reference):
 *   credit = max(0, normalised) for a graded program, 0 for a failed one.
 * A failure and a program worse than the constant prediction are worth the same, as MLE-bench's Human Rank gives an
 * invalid submission 0: the mean then rewards valid, better programs and is not dominated by one catastrophic
 * regression (normalised scores reach down to −1, kit/eval's clip).
 */
export const credit = (graded: boolean, normalised: number | null): number =>
  graded && normalised !== null && Number.isFinite(normalised) ? Math.max(0, normalised) : 0;

/** What a task figure reads of one program (a held-out draft) or run (a held-out search's champion). */
type Graded = Pick<HeldoutDraftRow | HeldoutRow, "taskId" | "testScore" | "normalized">;

/**
 * Per task, sorted by id: n rows, validRate = share with a graded test score, score = mean credit (null for a task
 * outside `normalisable`). Policy level (issue 30 item 4a): rows are the task's fresh Drafts; search level (4b): its
 * seeds' champions.
 */
export function taskFigures(rows: readonly Graded[], normalisable: ReadonlySet<string>): TaskFigure[] {
  const by = new Map<string, Graded[]>();
  for (const r of rows) by.set(r.taskId, [...(by.get(r.taskId) ?? []), r]);
  const graded = (r: Graded) => r.testScore !== null;
  return [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([taskId, rs]) => ({
      taskId,
      n: rs.length,
      validRate: rs.filter(graded).length / rs.length,
      score: normalisable.has(taskId) ? rs.reduce((s, r) => s + credit(graded(r), r.normalized), 0) / rs.length : null,
    }));
}

/** A row's draw, which pairs it with another generation's: a held-out draft's index, or a search's seed. */
type DrawnRow = HeldoutDraftRow | HeldoutRow;
const drawOf = (r: DrawnRow) => ("draft" in r ? r.draft : r.seed);

/** Each row's `credit` keyed by its draw, for the tasks in `normalisable` (what noiseSplit and the two-stage pair). */
export function drawnCredits(rows: readonly DrawnRow[], normalisable: ReadonlySet<string>): PairedValue[] {
  return rows
    .filter((r) => normalisable.has(r.taskId))
    .map((r) => ({ taskId: r.taskId, index: drawOf(r), value: credit(r.testScore !== null, r.normalized) }));
}

const drawnScores = (rows: readonly DrawnRow[]): Drawn<number | null>[] =>
  rows.map((r) => ({ taskId: r.taskId, index: drawOf(r), value: r.testScore }));

/** pairedGenerations of two generations' rows with each task's draws resampled too (twoStageGenerations). */
export function pairedWithDraws(
  a: readonly DrawnRow[],
  b: readonly DrawnRow[],
  normalisable: ReadonlySet<string>,
): PairedInterval | null {
  return twoStageGenerations(drawnCredits(a, normalisable), drawnCredits(b, normalisable));
}

/** pairedWinRate of two generations' rows with each task's draws resampled too (twoStageWinRate). */
export function winRateWithDraws(
  a: readonly DrawnRow[],
  b: readonly DrawnRow[],
  higherIsBetter: (taskId: string) => boolean,
): PairedInterval | null {
  return twoStageWinRate(drawnScores(a), drawnScores(b), higherIsBetter);
}

/** One measure of one comparison A − B, two ways: tasks resampled, and tasks and their draws resampled. */
export interface TwoIntervals {
  readonly tasks: PairedInterval | null;
  readonly withDraws: PairedInterval | null;
}

/**
 * The two held-out measures: `score`, Δ mean normalised score over the tasks in `normalisable`
 * (pairedGenerations; with draws: pairedWithDraws); `win`, the paired win rate over every task both measured
 * (pairedWinRate; with draws: winRateWithDraws).
 */
export type HeldoutMeasure = "win" | "score";

/** One comparison A − B: each measure with both its intervals (what strictVerdict reads as the direct estimator). */
export type PairedReadings = Readonly<Record<HeldoutMeasure, TwoIntervals>>;

/**
 * A − B on one level, draw for draw (drafts, or search seeds): the Δ score and the win rate, each with tasks
 * resampled and with tasks and draws resampled. The rule "A beats B" of bench/erl and notebook 09 reads both
 * intervals of a measure.
 */
export function pairedReadings(
  a: readonly DrawnRow[],
  b: readonly DrawnRow[],
  normalisable: ReadonlySet<string>,
  higherIsBetter: (taskId: string) => boolean,
): PairedReadings {
  return {
    score: {
      tasks: pairedGenerations(taskFigures(a, normalisable), taskFigures(b, normalisable)),
      withDraws: pairedWithDraws(a, b, normalisable),
    },
    win: { tasks: pairedWinRate(a, b, higherIsBetter), withDraws: winRateWithDraws(a, b, higherIsBetter) },
  };
}

/** A generation's figure over tasks: mean with a 95 % bootstrap interval over tasks (n = tasks with a score). */
export interface LevelSummary {
  readonly tasks: number;
  readonly validRate: number | null;
  readonly score: PairedInterval | null;
}

export function levelSummary(figs: readonly TaskFigure[]): LevelSummary {
  const scored = figs.flatMap((f) => (f.score === null ? [] : [f.score]));
  return {
    tasks: figs.length,
    validRate: figs.length ? figs.reduce((s, f) => s + f.validRate, 0) / figs.length : null,
    score: pairedBootstrap(scored),
  };
}

/**
 * Paired difference of two generations on one level: d_t = score_t(a) − score_t(b) over the tasks both scored (same
 * draws or seeds), with kit/eval's percentile bootstrap over tasks. "a beats b" when the interval's lo > 0.
 */
export function pairedGenerations(a: readonly TaskFigure[], b: readonly TaskFigure[]): PairedInterval | null {
  const bs = new Map(b.map((f) => [f.taskId, f.score]));
  const d = a.flatMap((f) => {
    const y = bs.get(f.taskId);
    return f.score === null || y === null || y === undefined ? [] : [f.score - y];
  });
  return pairedBootstrap(d);
}

/** Tasks whose normalised score is defined: both baselines measured and the reference beats the trivial one. */
export function normalisableTasks(
  baselines: Readonly<Record<string, { readonly trivial: number | null; readonly reference: number | null }>>,
  higherIsBetter: (taskId: string) => boolean,
): Set<string> {
  return new Set(
    Object.entries(baselines).flatMap(([id, b]) =>
      b.trivial !== null && b.reference !== null && (higherIsBetter(id) ? 1 : -1) * (b.reference - b.trivial) > 0
        ? [id]
        : [],
    ),
  );
}

/** A generation against another on both levels (policy: fresh drafts; search: the seeds' champions). */
export interface LevelReadings {
  readonly policy: PairedReadings;
  readonly search: PairedReadings;
}

/** One generation's two held-out measures, and its paired readings against the previous generation and against 0. */
export interface GenerationHeldout {
  readonly generation: number;
  readonly checkpoint: string;
  readonly policy: LevelSummary;
  readonly search: LevelSummary;
  /** This generation − the previous one; null for generation 0. */
  readonly vsPrevious: LevelReadings | null;
  /** This generation − generation 0; for generation 1 the same readings as `vsPrevious`; null for generation 0. */
  readonly vsFirst: LevelReadings | null;
}

/**
 * Both measures per generation (`checkpoints[k]` is generation k's) and its pairedReadings on both levels: differences
 * of the mean normalised score (tasks in `normalisable`) and win rates (every task, in its metric's direction), each
 * with tasks resampled and with each task's draws resampled too.
 */
export function heldoutReport(
  checkpoints: readonly string[],
  drafts: readonly HeldoutDraftRow[],
  search: readonly HeldoutRow[],
  normalisable: ReadonlySet<string>,
  higherIsBetter: (taskId: string) => boolean,
): GenerationHeldout[] {
  const at = <R extends { generation: number }>(rows: readonly R[], k: number) =>
    rows.filter((r) => r.generation === k);
  const read = (k: number, j: number): LevelReadings => ({
    policy: pairedReadings(at(drafts, k), at(drafts, j), normalisable, higherIsBetter),
    search: pairedReadings(at(search, k), at(search, j), normalisable, higherIsBetter),
  });
  return checkpoints.map((checkpoint, k) => {
    const vsPrevious = k > 0 ? read(k, k - 1) : null;
    return {
      generation: k,
      checkpoint,
      policy: levelSummary(taskFigures(at(drafts, k), normalisable)),
      search: levelSummary(taskFigures(at(search, k), normalisable)),
      vsPrevious,
      vsFirst: k > 1 ? read(k, 0) : vsPrevious,
    };
  });
}
