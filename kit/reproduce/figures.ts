// The plotted figure of an experiment beside its table: a search experiment's arms as bars (avg@k with the repeats'
// spread), an rl experiment's group-best reward per trainer step (the reward-design figure's curve), an sft
// experiment's share of examples per operator, a timing experiment's step wall time per trainer step, the funnel's
// share of candidates kept per stage. The paper's numbers stay in the table where their units differ; sft shares and
// funnel shares are the same unit, so the paper's stand beside the kit's bars, labelled as reference.
import { PAPER_COMPOSITION } from "../erl/index.js";
import { meanStd, type MeanStd } from "../eval/index.js";
import { OPERATORS } from "../policy/index.js";
import { PAPER_FUNNEL } from "../gym/index.js";
import { corpusFunnelFigure, PALETTE, type Figure } from "../report/index.js";
import { presetTitle, type ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";
import { experimentScales, fixedGroupBest } from "./rl-fixed-scale.js";
import type { RlCellResult } from "./run-rl.js";
import type { CellResult } from "./run-search.js";
import type { FunnelResult } from "./run-funnel.js";
import { operatorStats, type SftCellResult } from "./run-sft.js";
import { CREDIT_AXIS, creditTitle } from "./layout-figures.js";
import { repeatMedals, repeatScores, weakMark, weakTasks } from "./search-table.js";

/**
 * One bar per arm, error bar = population std over repeats. Where the cells are graded on leaderboards (MLE-bench
 * Lite, or the kit's corpus leaderboards) the bars are the Medal Average (searchTable's rule, %; Human Rank in the
 * hover); else the normalised score (mean credit over the normalisable tasks of repeat r, the score clipped to
 * [−1, 2] and floored at 0). Null when no arm has either.
 */
export function searchFigure(
  spec: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
): Figure | null {
  const arms = spec.presets[preset]!.arms;
  const mine = arms.map((arm) => cells.filter((c) => c.arm === arm.id));
  const medals = mine.map((of) => repeatMedals(of));
  if (medals.some((m) => m.medal.length)) {
    const medal = medals.map((m) => meanStd(m.medal.map((x) => 100 * x)));
    const rank = medals.map((m) => meanStd(m.rank));
    return bars(spec, preset, arms, medal, {
      text: (s) => `${s.mean.toFixed(1)} ± ${s.std.toFixed(1)} % (k = ${s.n})`,
      hover: (i) => `; Human Rank ${rank[i]!.mean.toFixed(3)} ± ${rank[i]!.std.toFixed(3)}`,
      what: "Medal Average",
      yTitle:
        `Medal Average (% of graded tasks with a medal), avg@k` +
        (preset === "paper" ? "" : "; kit reference-zoo leaderboards, not the paper's"),
    });
  }
  const stats = mine.map((of) => meanStd(repeatScores(of)));
  if (!stats.some((s) => s.n)) return null;
  const weak = mine.map(weakTasks);
  return bars(spec, preset, arms, stats, {
    text: (s, i) => weakMark(`${s.mean.toFixed(3)} ± ${s.std.toFixed(3)} (k = ${s.n})`, weak[i]!),
    what: "normalised score",
    yTitle: CREDIT_AXIS,
  });
}

/** searchFigure's bars: one per arm, its mean ± std, `text` inside the bar at its foot. */
function bars(
  spec: ExperimentSpec,
  preset: ReproducePreset,
  arms: readonly { readonly label: string }[],
  stats: readonly MeanStd[],
  o: { text: (s: MeanStd, i: number) => string; hover?: (i: number) => string; what: string; yTitle: string },
): Figure {
  return {
    data: [
      {
        type: "bar",
        x: arms.map((a) => a.label),
        y: stats.map((s) => (s.n ? s.mean : null)),
        error_y: { type: "data", array: stats.map((s) => (s.n ? s.std : 0)), visible: true },
        text: stats.map((s, i) => (s.n ? o.text(s, i) : "–")),
        textposition: "inside",
        insidetextanchor: "start", // at the bar's foot, clear of the error bar
        customdata: stats.map((s, i) => (s.n && o.hover ? o.hover(i) : "")),
        hovertemplate: "%{x}: %{text}%{customdata}<extra></extra>",
        marker: { color: "#4c78a8" },
      },
    ],
    layout: {
      ...(o.what === "normalised score"
        ? creditTitle(`${spec.title} (${presetTitle(spec, preset)})`, "per arm")
        : { title: `${spec.title} (${presetTitle(spec, preset)}): ${o.what} per arm` }),
      yaxis: { title: { text: o.yTitle }, rangemode: "tozero" },
      xaxis: { automargin: true },
      showlegend: false,
    },
  };
}

/**
 * One line per arm: at each trainer step, the group-best reward (the best candidate's reward, mean over the step's
 * groups) averaged over the arm's repeats that reached the step; the band is ± the population std over them.
 */
export function rlFigure(spec: ExperimentSpec, preset: ReproducePreset, cells: readonly RlCellResult[]): Figure | null {
  if (spec.metrics[0] === "mean-step-minutes") return stepTimeFigure(spec, preset, cells);
  // On the fixed scale when every cell's tasks have one (rl-fixed-scale.ts), else each run's own best reward.
  const scales = experimentScales(cells.map((c) => c.run));
  const fixed = cells.every((c) => c.run.groups.length > 0 && c.run.groups.every((g) => scales.has(g.taskId)));
  const series = (c: RlCellResult) =>
    fixed
      ? fixedGroupBest(c.run, scales).map((f) => ({ step: f.step, y: f.value }))
      : c.run.steps.map((s) => ({ step: s.step, y: s.bestReward }));
  const data = stepLines(spec, preset, cells, series, (label) => `${label}, step %{x}: %{y:.3f}<extra></extra>`);
  if (!data.length) return null;
  const yTitle = fixed
    ? "group-best reward on the fixed scale (static bounds; mean over groups, then repeats)"
    : "step's best reward on the run's own bounds (mean over repeats)";
  return {
    data,
    layout: {
      title: `${spec.title} (${presetTitle(spec, preset)})`,
      xaxis: { title: { text: "trainer step" }, dtick: 1 },
      yaxis: { title: { text: yTitle }, range: [0, 1.05] },
      legend: { orientation: "h", y: -0.2 },
    },
  };
}

/**
 * A timing experiment's figure (its first metric is mean-step-minutes, e.g. async-rl): one line per arm, each
 * trainer step's wall time in minutes averaged over the repeats that reached it, ± the population std over them;
 * the legend gives the arm's mean step time over all its steps and runs.
 */
function stepTimeFigure(spec: ExperimentSpec, preset: ReproducePreset, cells: readonly RlCellResult[]): Figure | null {
  const data = stepLines(
    spec,
    preset,
    cells,
    (c) => c.run.steps.map((s) => ({ step: s.step, y: s.wallS / 60 })),
    (label) => `${label}, step %{x}: %{y:.2f} min<extra></extra>`,
    (arm) => {
      const all = cells.filter((c) => c.arm === arm).flatMap((c) => c.run.steps.map((s) => s.wallS / 60));
      return all.length ? ` (mean ${(all.reduce((a, b) => a + b, 0) / all.length).toFixed(2)} min)` : "";
    },
  );
  if (!data.length) return null;
  return {
    data,
    layout: {
      title: `${spec.title} (${presetTitle(spec, preset)})`,
      xaxis: { title: { text: "trainer step" }, dtick: 1 },
      yaxis: { title: { text: "step wall time (min; mean over repeats)" }, rangemode: "tozero" },
      legend: { orientation: "h", y: -0.2 },
    },
  };
}

/** Per arm, a line over trainer steps: the mean of `series` over the arm's repeats that reached the step, ± std. */
function stepLines(
  spec: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly RlCellResult[],
  series: (c: RlCellResult) => { step: number; y: number }[],
  hover: (label: string) => string,
  suffix: (arm: string) => string = () => "",
): Record<string, unknown>[] {
  const arms = spec.presets[preset]!.arms;
  return arms.flatMap((arm, i) => {
    const runs = cells.filter((c) => c.arm === arm.id).map(series);
    const steps = [...new Set(runs.flatMap((r) => r.map((s) => s.step)))].sort((a, b) => a - b);
    if (!steps.length) return [];
    const at = steps.map((step) => meanStd(runs.flatMap((r) => r.filter((s) => s.step === step).map((s) => s.y))));
    const color = PALETTE[i % PALETTE.length]!;
    return [
      {
        type: "scatter",
        mode: "lines+markers",
        name: arm.label + suffix(arm.id),
        x: steps,
        y: at.map((m) => m.mean),
        error_y: { type: "data", array: at.map((m) => m.std), visible: true, color },
        line: { color },
        hovertemplate: hover(arm.label),
      },
    ];
  });
}

/**
 * Grouped bars per operator: each arm's share of its examples (sftTable's rule: mean over repeats of the operator's
 * % of the repeat's examples; error bar = population std over repeats; the hover splits parallel / evolution), and
 * the paper's composition (docs/paper-map.md: SFT composition) as a grey reference bar. Null when no arm has a cell.
 */
export function sftFigure(
  spec: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly SftCellResult[],
): Figure | null {
  const ops = [...OPERATORS];
  const kit = spec.presets[preset]!.arms.flatMap((arm, i) => {
    const mine = cells.filter((c) => c.arm === arm.id);
    if (!mine.length) return [];
    const stats = operatorStats(mine);
    return [
      {
        type: "bar",
        name: `kit: ${arm.label} (k = ${mine.length})`,
        x: ops,
        y: stats.map((o) => o.share.mean),
        error_y: { type: "data", array: stats.map((o) => o.share.std), visible: true },
        // the split in the hover only: bars too short for it would draw it as unreadable text
        customdata: stats.map(
          (o) => `${o.parallel.toFixed(1)} parallel + ${o.evolution.toFixed(1)} evolution examples`,
        ),
        hovertemplate: "%{x}: %{y:.1f}% (%{customdata})<extra></extra>",
        marker: { color: PALETTE[i % PALETTE.length] },
      },
    ];
  });
  if (!kit.length) return null;
  const paper = {
    type: "bar",
    name: "paper (reference): 26,259 examples",
    x: ops,
    y: ops.map((op) => PAPER_COMPOSITION[op]),
    hovertemplate: "%{x}: %{y:.1f}% (paper)<extra></extra>",
    marker: { color: "#9d9d9d" },
  };
  return {
    data: [...kit, paper],
    layout: {
      title: `${spec.title} (${presetTitle(spec, preset)})`,
      barmode: "group",
      yaxis: { title: { text: "share of the dataset's examples (%)" }, rangemode: "tozero" },
      xaxis: { title: { text: "operator" } },
      legend: { orientation: "h", y: -0.2 },
    },
  };
}

/**
 * The funnel's figure is notebook 01's (report's corpusFunnelFigure: the share of candidates kept after each kit
 * stage beside the paper's competition branch), titled as the experiment. Null without candidates.
 */
export function funnelFigure(spec: ExperimentSpec, preset: ReproducePreset, r: FunnelResult): Figure | null {
  if (!r.candidates) return null;
  const fig = corpusFunnelFigure(r.table, PAPER_FUNNEL);
  return { ...fig, layout: { ...fig.layout, title: { text: `${spec.title} (${presetTitle(spec, preset)})` } } };
}
