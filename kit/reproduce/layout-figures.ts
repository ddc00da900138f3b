// Figures of the experiments that lay out another's cells: per modality (grouped bars, one per arm) and the solution
// ceiling (stacked bars of grade shares per arm). Same numbers as their tables (cell-layouts.ts' stats). Search
// efficiency mixes units (nodes, characters, shares), so it stays a table.
import { PALETTE, wrapLabel, type Figure } from "../report/index.js";
import { ceilingStats, modalityStats } from "./cell-layouts.js";
import type { ExperimentSpec, ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";

/** Grade colours from the top grade down: the best green, the worst grey. */
const GRADE_COLOURS = ["#54a24b", "#88c57f", "#f2cf5b", "#bab0ac"];

/** The figure of a shared layout (`spec.layout`), from its owner's cells; null for efficiency or without data. */
export function layoutFigure(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): Figure | null {
  if (spec.layout === "modality") return modalityFigure(spec, owner, preset, cells);
  if (spec.layout === "ceiling") return ceilingFigure(spec, owner, preset, cells);
  return null;
}

/**
 * Grouped bars: x = modality (with its normalisable task count), one bar per arm = modalityStats' mean over
 * repeats of the credit score, error bar = population std. Modalities without a normalisable task are left out.
 */
function modalityFigure(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): Figure | null {
  const rows = modalityStats(owner, preset, cells).filter((m) => m.normalisable > 0);
  if (!rows.length) return null;
  const x = rows.map((m) => `${m.modality} (${m.normalisable} of ${m.tasks} tasks)`);
  const data = owner.presets[preset]!.arms.map((arm, i) => {
    const stats = rows.map((m) => m.perArm.find((a) => a.arm === arm.id)!.score);
    return {
      type: "bar",
      name: arm.label,
      x,
      y: stats.map((s) => (s.n ? s.mean : null)),
      error_y: { type: "data", array: stats.map((s) => (s.n ? s.std : 0)), visible: true },
      hovertemplate: `${arm.label}, %{x}: %{y:.3f}<extra></extra>`,
      marker: { color: PALETTE[i % PALETTE.length] },
    };
  });
  return {
    data,
    layout: {
      title: `${spec.title} (${preset} preset)`,
      barmode: "group",
      yaxis: { title: { text: "normalised test score (0 = trivial, 1 = reference), avg@k" }, rangemode: "tozero" },
      xaxis: { title: { text: "modality (normalisable tasks)" }, automargin: true },
      legend: { orientation: "h", y: -0.25 },
    },
  };
}

/**
 * Stacked bars: x = arm (with its graded runs), one segment per grade from the top grade up the stack's foot =
 * ceilingStats' mean share over repeats (%), so each bar sums to ≈ 100 %; the hover gives the repeats' std.
 */
function ceilingFigure(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): Figure | null {
  const st = ceilingStats(owner, preset, cells);
  const arms = owner.presets[preset]!.arms.filter((a) => (st.graded.find((g) => g.arm === a.id)?.runs ?? 0) > 0);
  if (!arms.length) return null;
  const x = arms.map((a) => `${wrapLabel(a.label, 22)}<br>(${st.graded.find((g) => g.arm === a.id)!.runs} runs)`);
  const data = st.grades.map((g, i) => {
    const shares = arms.map((a) => g.perArm.find((p) => p.arm === a.id)!.share);
    return {
      type: "bar",
      name: g.label,
      x,
      y: shares.map((s) => s.mean),
      customdata: shares.map((s) => s.std),
      text: shares.map((s) => (s.mean >= 5 ? `${s.mean.toFixed(0)}%` : "")),
      textposition: "inside",
      hovertemplate: `${g.label}, %{x}: %{y:.0f}% ± %{customdata:.0f}<extra></extra>`,
      marker: { color: GRADE_COLOURS[i % GRADE_COLOURS.length] },
    };
  });
  return {
    data,
    layout: {
      title: `${spec.title} (${preset} preset${st.medals ? "" : "; graded by normalised score, no leaderboards"})`,
      barmode: "stack",
      yaxis: { title: { text: "share of graded runs (%)" }, range: [0, 100] },
      xaxis: { automargin: true, tickangle: 0 },
      legend: { orientation: "h", y: -0.3, traceorder: "normal" },
      margin: { b: 140 },
    },
  };
}
