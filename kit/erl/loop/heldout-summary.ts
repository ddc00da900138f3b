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
 * regression (normalised scores are unbounded below).
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

/** The four paired readings of one comparison A − B that every held-out verdict reads (both must exclude 0). */
export interface PairedReadings {
  /** Δ mean normalised score over the tasks in `normalisable`, tasks resampled (pairedGenerations). */
  readonly score: PairedInterval | null;
  /** The same Δ with each task's draws resampled too (pairedWithDraws). */
  readonly scoreWithDraws: PairedInterval | null;
  /** Paired win rate over every task both measured, tasks resampled (pairedWinRate). */
  readonly win: PairedInterval | null;
  /** The same win rate with each task's draws resampled too (winRateWithDraws). */
  readonly winWithDraws: PairedInterval | null;
}

/**
 * A − B on one level, draw for draw (drafts, or search seeds), read four ways: the Δ score and the win rate, each
 * with tasks resampled and with tasks and draws resampled. The rule "A beats B" of bench/erl and notebook 09 reads
 * both intervals of one measure.
 */
export function pairedReadings(
  a: readonly DrawnRow[],
  b: readonly DrawnRow[],
  normalisable: ReadonlySet<string>,
  higherIsBetter: (taskId: string) => boolean,
): PairedReadings {
  return {
    score: pairedGenerations(taskFigures(a, normalisable), taskFigures(b, normalisable)),
    scoreWithDraws: pairedWithDraws(a, b, normalisable),
    win: pairedWinRate(a, b, higherIsBetter),
    winWithDraws: winRateWithDraws(a, b, higherIsBetter),
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

/** Paired win rates (`pairedWinRate`: P(this generation's program ≻ the other's) − ½ over tasks) on both levels. */
export interface GenerationWins {
  readonly policyVsPrevious: PairedInterval | null;
  readonly searchVsPrevious: PairedInterval | null;
  readonly policyVsFirst: PairedInterval | null;
  readonly searchVsFirst: PairedInterval | null;
}

/** One generation's two held-out measures, and its paired differences with the previous generation and with 0. */
export interface GenerationHeldout {
  readonly generation: number;
  readonly checkpoint: string;
  readonly policy: LevelSummary;
  readonly search: LevelSummary;
  readonly policyVsPrevious: PairedInterval | null;
  readonly searchVsPrevious: PairedInterval | null;
  readonly policyVsFirst: PairedInterval | null;
  readonly searchVsFirst: PairedInterval | null;
  /** The same comparisons as win rates: every held-out task weighs the same, normalisable or not. */
  readonly wins: GenerationWins;
  /**
   * The policy level's comparisons (score Δ and win rate) with each task's draws resampled as well as the tasks
   * (twoStageGenerations, twoStageWinRate): wider than the tasks-only intervals by the draws' own noise.
   */
  readonly policyWithDraws: {
    readonly vsPrevious: PairedInterval | null;
    readonly vsFirst: PairedInterval | null;
    readonly winVsPrevious: PairedInterval | null;
    readonly winVsFirst: PairedInterval | null;
  };
}

/**
 * Both measures per generation (`checkpoints[k]` is generation k's), with paired intervals over tasks: differences of
 * the mean normalised score (tasks in `normalisable`) and win rates (every task, in its metric's direction).
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
  const win = (rows: readonly (HeldoutDraftRow | HeldoutRow)[], k: number, j: number) =>
    k > 0 && j >= 0 ? pairedWinRate(at(rows, k), at(rows, j), higherIsBetter) : null;
  const pol = checkpoints.map((_, k) => taskFigures(at(drafts, k), normalisable));
  const sea = checkpoints.map((_, k) => taskFigures(at(search, k), normalisable));
  return checkpoints.map((checkpoint, k) => ({
    generation: k,
    checkpoint,
    policy: levelSummary(pol[k]!),
    search: levelSummary(sea[k]!),
    policyVsPrevious: k > 0 ? pairedGenerations(pol[k]!, pol[k - 1]!) : null,
    searchVsPrevious: k > 0 ? pairedGenerations(sea[k]!, sea[k - 1]!) : null,
    policyVsFirst: k > 1 ? pairedGenerations(pol[k]!, pol[0]!) : null,
    searchVsFirst: k > 1 ? pairedGenerations(sea[k]!, sea[0]!) : null,
    wins: {
      policyVsPrevious: win(drafts, k, k - 1),
      searchVsPrevious: win(search, k, k - 1),
      policyVsFirst: k > 1 ? win(drafts, k, 0) : null,
      searchVsFirst: k > 1 ? win(search, k, 0) : null,
    },
    policyWithDraws: {
      vsPrevious: k > 0 ? pairedWithDraws(at(drafts, k), at(drafts, k - 1), normalisable) : null,
      vsFirst: k > 1 ? pairedWithDraws(at(drafts, k), at(drafts, 0), normalisable) : null,
      winVsPrevious: k > 0 ? winRateWithDraws(at(drafts, k), at(drafts, k - 1), higherIsBetter) : null,
      winVsFirst: k > 1 ? winRateWithDraws(at(drafts, k), at(drafts, 0), higherIsBetter) : null,
    },
  }));
}
