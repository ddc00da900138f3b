// Figures of the experiments that lay out another's cells: per modality (grouped bars, one per arm) and the solution
// ceiling (stacked bars of grade shares per arm). Same numbers as their tables (cell-layouts.ts' stats). Search
// efficiency mixes units (nodes, characters, shares), so it stays a table.
import { PALETTE, wrapLabel, type Figure } from "../report/index.js";
import { ceilingStats, modalityStats } from "./cell-layouts.js";
import { presetTitle, type ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";
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
 * Grouped bars: x = modality, one bar per arm, error bar = population std over repeats. Where a task has a leaderboard
 * the bars are modalityStats' medal rate (%, the paper's per-modality measure; modalities without a graded task left
 * out), else its credit score (normalised, clipped to [−1, 2], floored at 0; modalities without a normalisable task
 * left out). The table has both.
 */
function modalityFigure(
  spec: ExperimentSpec,
  owner: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): Figure | null {
  const all = modalityStats(owner, preset, cells);
  const medals = all.some((m) => m.graded > 0);
  const rows = all.filter((m) => (medals ? m.graded : m.normalisable) > 0);
  if (!rows.length) return null;
  const x = rows.map((m) =>
    medals
      ? `${m.modality} (${m.graded} of ${m.tasks} tasks graded)`
      : `${m.modality} (${m.normalisable} of ${m.tasks} tasks)`,
  );
  const k = medals ? 100 : 1;
  const data = owner.presets[preset]!.arms.map((arm, i) => {
    const stats = rows.map((m) => {
      const a = m.perArm.find((p) => p.arm === arm.id)!;
      return medals ? a.medal : a.score;
    });
    return {
      type: "bar",
      name: arm.label,
      x,
      y: stats.map((s) => (s.n ? k * s.mean : null)),
      error_y: { type: "data", array: stats.map((s) => (s.n ? k * s.std : 0)), visible: true },
      hovertemplate: `${arm.label}, %{x}: ${medals ? "%{y:.0f}%" : "%{y:.3f}"}<extra></extra>`,
      marker: { color: PALETTE[i % PALETTE.length] },
    };
  });
  return {
    data,
    layout: {
      ...(medals
        ? { title: `${spec.title} (${presetTitle(owner, preset)}): medal rate per modality` }
        : creditTitle(`${spec.title} (${presetTitle(owner, preset)})`, "per modality")),
      barmode: "group",
      yaxis: medals
        ? { title: { text: `medal rate (% of graded tasks), avg@k${leaderboardWords(preset)}` }, range: [0, 100] }
        : { title: { text: CREDIT_AXIS }, rangemode: "tozero" },
      xaxis: {
        title: { text: medals ? "modality (graded tasks)" : "modality (normalisable tasks)" },
        automargin: true,
      },
      legend: { orientation: "h", y: -0.25 },
    },
  };
}

/** The normalised score's axis where it is credited (max(0, ·), searchTable's rule). */
export const CREDIT_AXIS = "normalised test score (1 = kit reference), avg@k";

/**
 * A figure's title when it plots the normalised score: the experiment's title names the paper's measure (a medal
 * rate, Match / Surpass), so a second line says what is plotted instead, and why. `margin.t` makes room for it.
 */
export function creditTitle(title: string, per: string): { title: { text: string }; margin: { t: number } } {
  return {
    title: {
      text:
        `${title}<br><sup>plotted: the normalised score ${per} (clipped to [−1, 2], floored at 0), ` +
        "not the paper's measure: no leaderboard grades these tasks</sup>",
    },
    margin: { t: 100 },
  };
}

/** Where a preset's medals come from: the paper preset's MLE-bench Lite leaderboards, else the kit's own. */
const leaderboardWords = (preset: ReproducePreset) =>
  preset === "paper" ? "" : "; kit reference-zoo leaderboards, not the paper's";

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
      title:
        `${spec.title} (${preset} preset` +
        `${st.medals ? leaderboardWords(preset) : "; graded by normalised score, no leaderboards"})`,
      barmode: "stack",
      yaxis: { title: { text: "share of graded runs (%)" }, range: [0, 100] },
      xaxis: { automargin: true, tickangle: 0 },
      legend: { orientation: "h", y: -0.3, traceorder: "normal" },
      margin: { b: 140 },
    },
  };
}
