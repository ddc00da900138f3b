import type { Figure } from "./plotly.js";

const GRADE_COLOR = {
  gold: "#d4af37",
  silver: "#a8a9ad",
  bronze: "#b87333",
  none: "#d0d7de",
  invalid: "#e45756",
  ungraded: "#72b7b2",
} as const;
type Grades = Record<keyof typeof GRADE_COLOR, number>;

/** Stacked bars: runs of each group with gold/silver/bronze/no medal/no valid submission/no leaderboard (ungraded). */
export function gradeDistributionFigure(
  groups: readonly { group: string; grades: Grades }[],
  opts: { title?: string } = {},
): Figure {
  return {
    data: (Object.keys(GRADE_COLOR) as (keyof Grades)[]).map((g) => ({
      type: "bar",
      name: g,
      x: groups.map((r) => r.group),
      y: groups.map((r) => r.grades[g]),
      marker: { color: GRADE_COLOR[g] },
    })),
    layout: {
      title: { text: opts.title ?? "Grade distribution (runs)" },
      barmode: "stack",
      yaxis: { title: { text: "runs" } },
    },
  };
}

export interface ModalityRow {
  readonly group: string;
  readonly modality: string;
  readonly value: number | null;
}

/** Grouped bars per modality (medal rate, or any rate in [0, 1]), one bar colour per group. */
export function modalityBarsFigure(
  rows: readonly ModalityRow[],
  opts: { title?: string; yTitle?: string } = {},
): Figure {
  const groups = [...new Set(rows.map((r) => r.group))];
  const modalities = [...new Set(rows.map((r) => r.modality))].sort();
  return {
    data: groups.map((g) => ({
      type: "bar",
      name: g,
      x: modalities,
      y: modalities.map((m) => rows.find((r) => r.group === g && r.modality === m)?.value ?? null),
    })),
    layout: {
      title: { text: opts.title ?? "Per-modality rate" },
      barmode: "group",
      yaxis: { title: { text: opts.yTitle ?? "rate" }, range: [0, 1] },
    },
  };
}

/** Bars with error bars: one metric (mean ± std) per group, e.g. Medal Average avg@k. */
export function metricBarsFigure(
  rows: readonly { group: string; mean: number; std: number }[],
  opts: { title?: string; yTitle?: string } = {},
): Figure {
  return {
    data: [
      {
        type: "bar",
        x: rows.map((r) => r.group),
        y: rows.map((r) => (Number.isFinite(r.mean) ? r.mean : null)),
        error_y: { type: "data", array: rows.map((r) => (Number.isFinite(r.std) ? r.std : 0)), visible: true },
        marker: { color: "#4c78a8" },
      },
    ],
    layout: { title: { text: opts.title ?? "Metric by group" }, yaxis: { title: { text: opts.yTitle ?? "value" } } },
  };
}
