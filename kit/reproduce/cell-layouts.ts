// Other layouts of a search experiment's finished cells, for the experiments that share them (sharesCellsWith):
// per modality (rows = modalities, one column per arm) and the solution ceiling (rows = grades, one column per arm).
import { meanStd } from "../eval/index.js";
import type { ExperimentSpec, ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";
import { referenceRows, repeatScores, type TableRow } from "./search-table.js";

const fmt = (xs: readonly number[], d: number, unit = "") => {
  const m = meanStd([...xs]);
  return m.n ? `${m.mean.toFixed(d)} ± ${m.std.toFixed(d)}${unit}` : "–";
};
/** f of each repeat's cells, in repeat order (the values avg@k is taken over). */
const perRepeat = <C extends CellResult>(cells: readonly C[], f: (of: readonly C[]) => number) =>
  [...new Set(cells.map((c) => c.repeat))].sort((a, b) => a - b).map((r) => f(cells.filter((c) => c.repeat === r)));

/**
 * Per modality m and arm a: for each repeat r, score_r = mean over the normalisable tasks of modality m of
 * credit = max(0, normalised) (0 without a champion; searchTable's rule restricted to m); the cell is
 * mean ± population std over repeats, "–" where m has no normalisable task. `tasks` counts m's tasks.
 */
export function modalityTable(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): TableRow[] {
  const arms = owner.presets[preset]!.arms;
  const kit = [...new Set(cells.map((c) => c.modality))].sort().map((modality) => {
    const of = cells.filter((c) => c.modality === modality);
    const tasks = new Set(of.map((c) => c.task));
    const normalisable = new Set(of.filter((c) => c.normalisable).map((c) => c.task));
    const perArm = arms.map((arm) => {
      return [arm.id, fmt(repeatScores(of.filter((c) => c.arm === arm.id)), 3)] as const;
    });
    return {
      source: `kit (${preset})`,
      row: modality,
      values: { tasks: `${tasks.size} (${normalisable.size} normalisable)`, ...Object.fromEntries(perArm) },
    };
  });
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

/**
 * Rows = grades, one column per arm: for each repeat r, the share of the arm's graded cells of repeat r in the
 * grade; the cell is mean ± population std over repeats, in %. A last row counts the graded runs per arm.
 * Cells graded on a leaderboard (the paper preset) are split by medal (MEDAL_GRADES); the others by where the
 * champion lands between trivial and reference (CEILING_GRADES, normalisable tasks only).
 */
export function ceilingTable(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): TableRow[] {
  const arms = owner.presets[preset]!.arms;
  const medals = cells.length > 0 && cells.every((c) => c.grade !== null);
  const graded = cells.flatMap((c) => {
    const band = medals ? c.grade : ceilingGrade(c);
    return band ? [{ ...c, band }] : [];
  });
  const grades: readonly { id: string; label: string }[] = medals ? MEDAL_GRADES : CEILING_GRADES;
  const kit = grades.map((g) => ({
    source: `kit (${preset})`,
    row: g.label,
    values: Object.fromEntries(
      arms.map((arm) => {
        const mine = graded.filter((c) => c.arm === arm.id);
        const shares = perRepeat(mine, (rs) => (100 * rs.filter((c) => c.band === g.id).length) / rs.length);
        return [arm.id, fmt(shares, 0, " %")];
      }),
    ),
  }));
  const counts = {
    source: `kit (${preset})`,
    row: medals ? "graded runs (tasks × repeats)" : "graded runs (normalisable tasks × repeats)",
    values: Object.fromEntries(arms.map((arm) => [arm.id, String(graded.filter((c) => c.arm === arm.id).length)])),
  };
  return [...kit, counts, ...referenceRows(spec)];
}
