// Other layouts of a search experiment's finished cells, for the experiments that share them (sharesCellsWith):
// per modality (rows = modalities, one column per arm) and the solution ceiling (rows = grades, one column per arm).
import { meanStd } from "../eval/index.js";
import { kitSource, type ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";
import { referenceRows, repeatMedals, repeatScores, weakMark, weakTasks, type TableRow } from "./search-table.js";

const fmtStat = (m: ReturnType<typeof meanStd>, d: number, unit = "") =>
  m.n ? `${m.mean.toFixed(d)} ± ${m.std.toFixed(d)}${unit}` : "–";
/** f of each repeat's cells, in repeat order (the values avg@k is taken over). */
const perRepeat = <C extends CellResult>(cells: readonly C[], f: (of: readonly C[]) => number) =>
  [...new Set(cells.map((c) => c.repeat))].sort((a, b) => a - b).map((r) => f(cells.filter((c) => c.repeat === r)));

/** One modality's row of numbers: its task counts and, per arm, mean ± std over repeats of its measures. */
export interface ModalityStats {
  readonly modality: string;
  readonly tasks: number;
  /** Tasks of the modality with a leaderboard (MLE-bench Lite or the kit's corpus one): their cells have a grade. */
  readonly graded: number;
  readonly normalisable: number;
  readonly perArm: readonly {
    readonly arm: string;
    /** Medal rate (share of graded tasks with any medal, 0–1), per repeat then avg@k; n = 0 without a graded task. */
    readonly medal: ReturnType<typeof meanStd>;
    /** Credit score (normalised, clipped to [−1, 2], floored at 0); n = 0 without a normalisable task. */
    readonly score: ReturnType<typeof meanStd>;
    /** Normalisable tasks of the arm's cells with a weak reference. */
    readonly weak: number;
  }[];
}

/**
 * Per modality m and arm a: for each repeat r, medal_r = share of the repeat's graded tasks of modality m whose
 * champion won any medal (repeatMedals restricted to m) and score_r = mean over the normalisable tasks of modality
 * m of credit = max(0, normalised) (0 without a champion; searchTable's rule restricted to m); the arm's figures are
 * mean ± population std over repeats (n = 0 where m has no such task). Modalities sorted by name.
 */
export function modalityStats(
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): ModalityStats[] {
  const arms = owner.presets[preset]!.arms;
  return [...new Set(cells.map((c) => c.modality))].sort().map((modality) => {
    const of = cells.filter((c) => c.modality === modality);
    return {
      modality,
      tasks: new Set(of.map((c) => c.task)).size,
      graded: new Set(of.filter((c) => c.grade !== null).map((c) => c.task)).size,
      normalisable: new Set(of.filter((c) => c.normalisable).map((c) => c.task)).size,
      perArm: arms.map((arm) => {
        const mine = of.filter((c) => c.arm === arm.id);
        return {
          arm: arm.id,
          medal: meanStd(repeatMedals(mine).medal),
          score: meanStd(repeatScores(mine)),
          weak: weakTasks(mine),
        };
      }),
    };
  });
}

/**
 * modalityStats as rows (rows = modalities). Where a task has a leaderboard, one column per arm of its medal rate
 * (whole %) comes first, then one per arm of the normalised score (3 decimals, marked where a reference is weak);
 * without any, the arm columns hold the normalised score. "–" where the modality has no such task.
 */
export function modalityTable(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): TableRow[] {
  const stats = modalityStats(owner, preset, cells);
  const medals = stats.some((m) => m.graded > 0);
  const kit = stats.map((m) => ({
    source: kitSource(owner, preset),
    row: m.modality,
    values: {
      tasks: medals
        ? `${m.tasks} (${m.graded} on a leaderboard, ${m.normalisable} normalisable)`
        : `${m.tasks} (${m.normalisable} normalisable)`,
      ...(medals
        ? Object.fromEntries(m.perArm.map((a) => [`${a.arm}: medal rate`, fmtStat(scaled(a.medal, 100), 0, " %")]))
        : {}),
      ...Object.fromEntries(
        m.perArm.map((a) => [medals ? `${a.arm}: normalised` : a.arm, weakMark(fmtStat(a.score, 3), a.weak)]),
      ),
    },
  }));
  return [...kit, ...referenceRows(spec)];
}

/** A mean ± std in other units (×k). */
const scaled = (m: ReturnType<typeof meanStd>, k: number) => ({ ...m, mean: k * m.mean, std: k * m.std });

/** Grades of a run's champion on tasks without a leaderboard, from the top: bands of the normalised score. */
export const CEILING_GRADES = [
  { id: "reference", label: "at or above the reference (normalised ≥ 1)" },
  { id: "between", label: "between trivial and reference (0 < normalised < 1)" },
  { id: "trivial", label: "at or below trivial (normalised ≤ 0)" },
  { id: "none", label: "no champion (no valid program)" },
] as const;
export type CeilingGrade = (typeof CEILING_GRADES)[number]["id"];

/**
 * The grade of one cell's champion, n = (s − trivial)/(reference − trivial) oriented by the metric:
 *   no champion (testScore null) → none; n ≥ 1 → reference; 0 < n < 1 → between; n ≤ 0 → trivial.
 * A task that cannot be normalised (the reference does not beat trivial) is not graded: null.
 */
export function ceilingGrade(c: Pick<CellResult, "normalisable" | "testScore" | "normalized">): CeilingGrade | null {
  if (!c.normalisable) return null;
  if (c.testScore === null || c.normalized === null) return "none";
  if (c.normalized >= 1) return "reference";
  return c.normalized > 0 ? "between" : "trivial";
}

/**
 * Medal grades of a run's champion on a leaderboard, from the top: MLE-bench Lite's (the paper preset) or the kit's
 * corpus leaderboards (the laptop preset, once built).
 */
export const MEDAL_GRADES = [
  { id: "gold", label: "gold medal" },
  { id: "silver", label: "silver medal" },
  { id: "bronze", label: "bronze medal" },
  { id: "none", label: "no medal (or no champion)" },
] as const;

/** The solution ceiling's numbers: the grade scale used, per grade and arm the share's mean ± std, graded counts. */
export interface CeilingStats {
  /** True when every cell was graded on a leaderboard (medals), else the trivial–reference bands. */
  readonly medals: boolean;
  readonly grades: readonly {
    readonly id: string;
    readonly label: string;
    readonly perArm: readonly { readonly arm: string; readonly share: ReturnType<typeof meanStd> }[];
  }[];
  readonly graded: readonly { readonly arm: string; readonly runs: number }[];
}

/**
 * Per grade g and arm a: for each repeat r, share_r = 100 × (a's graded cells of repeat r in g) / (a's graded
 * cells of repeat r); the figure is mean ± population std over repeats, in %. When every cell is graded on a
 * leaderboard (MLE-bench Lite, or the kit's corpus leaderboards) they are split by medal (MEDAL_GRADES); else by where
 * the champion lands between trivial and reference (CEILING_GRADES, normalisable tasks only).
 */
export function ceilingStats(
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): CeilingStats {
  const arms = owner.presets[preset]!.arms;
  const medals = cells.length > 0 && cells.every((c) => c.grade !== null);
  const graded = cells.flatMap((c) => {
    const band = medals ? c.grade : ceilingGrade(c);
    return band ? [{ ...c, band }] : [];
  });
  const grades: readonly { id: string; label: string }[] = medals ? MEDAL_GRADES : CEILING_GRADES;
  return {
    medals,
    grades: grades.map((g) => ({
      ...g,
      perArm: arms.map((arm) => {
        const mine = graded.filter((c) => c.arm === arm.id);
        const shares = perRepeat(mine, (rs) => (100 * rs.filter((c) => c.band === g.id).length) / rs.length);
        return { arm: arm.id, share: meanStd(shares) };
      }),
    })),
    graded: arms.map((arm) => ({ arm: arm.id, runs: graded.filter((c) => c.arm === arm.id).length })),
  };
}

/** ceilingStats as rows: rows = grades, one column per arm (whole %), and a last row counting graded runs. */
export function ceilingTable(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): TableRow[] {
  const st = ceilingStats(owner, preset, cells);
  const kit = st.grades.map((g) => ({
    source: kitSource(owner, preset),
    row: g.label,
    values: Object.fromEntries(g.perArm.map((a) => [a.arm, fmtStat(a.share, 0, " %")])),
  }));
  const counts = {
    source: kitSource(owner, preset),
    row: st.medals ? "graded runs (tasks × repeats)" : "graded runs (normalisable tasks × repeats)",
    values: Object.fromEntries(st.graded.map((g) => [g.arm, String(g.runs)])),
  };
  return [...kit, counts, ...referenceRows(spec)];
}
