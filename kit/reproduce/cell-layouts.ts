// Other layouts of a search experiment's finished cells, for the experiments that share them (sharesCellsWith):
// per modality (rows = modalities, one column per arm) and the solution ceiling (rows = grades, one column per arm).
import { meanStd } from "../eval/index.js";
import type { ExperimentSpec, ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";
import { referenceRows, repeatScores, type TableRow } from "./search-table.js";

const fmtStat = (m: ReturnType<typeof meanStd>, d: number, unit = "") =>
  m.n ? `${m.mean.toFixed(d)} ± ${m.std.toFixed(d)}${unit}` : "–";
/** f of each repeat's cells, in repeat order (the values avg@k is taken over). */
const perRepeat = <C extends CellResult>(cells: readonly C[], f: (of: readonly C[]) => number) =>
  [...new Set(cells.map((c) => c.repeat))].sort((a, b) => a - b).map((r) => f(cells.filter((c) => c.repeat === r)));

/** One modality's row of numbers: its task counts and, per arm, mean ± std over repeats of the credit score. */
export interface ModalityStats {
  readonly modality: string;
  readonly tasks: number;
  readonly normalisable: number;
  readonly perArm: readonly { readonly arm: string; readonly score: ReturnType<typeof meanStd> }[];
}

/**
 * Per modality m and arm a: for each repeat r, score_r = mean over the normalisable tasks of modality m of
 * credit = max(0, normalised) (0 without a champion; searchTable's rule restricted to m); the arm's figure is
 * mean ± population std over repeats (n = 0 where m has no normalisable task). Modalities sorted by name.
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
      normalisable: new Set(of.filter((c) => c.normalisable).map((c) => c.task)).size,
      perArm: arms.map((arm) => ({ arm: arm.id, score: meanStd(repeatScores(of.filter((c) => c.arm === arm.id))) })),
    };
  });
}

/** modalityStats as rows (rows = modalities, one column per arm, 3 decimals; "–" without a normalisable task). */
export function modalityTable(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): TableRow[] {
  const kit = modalityStats(owner, preset, cells).map((m) => ({
    source: `kit (${preset})`,
    row: m.modality,
    values: {
      tasks: `${m.tasks} (${m.normalisable} normalisable)`,
      ...Object.fromEntries(m.perArm.map((a) => [a.arm, fmtStat(a.score, 3)])),
    },
  }));
  return [...kit, ...referenceRows(spec)];
}

/** Grades of a run's champion at laptop scale, from the top: corpus tasks have no leaderboards, so no medals. */
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

/** Medal grades of a run's champion on an MLE-bench leaderboard (the paper preset), from the top. */
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
 * cells of repeat r); the figure is mean ± population std over repeats, in %. Cells graded on a leaderboard (the
 * paper preset) are split by medal (MEDAL_GRADES); the others by where the champion lands between trivial and
 * reference (CEILING_GRADES, normalisable tasks only).
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
    source: `kit (${preset})`,
    row: g.label,
    values: Object.fromEntries(g.perArm.map((a) => [a.arm, fmtStat(a.share, 0, " %")])),
  }));
  const counts = {
    source: `kit (${preset})`,
    row: st.medals ? "graded runs (tasks × repeats)" : "graded runs (normalisable tasks × repeats)",
    values: Object.fromEntries(st.graded.map((g) => [g.arm, String(g.runs)])),
  };
  return [...kit, counts, ...referenceRows(spec)];
}
