// The trajectory analysis (kit/eval run-stats.ts) as plotly figures: one per figure, every run of the report in it.
import { TRAJECTORY_OPERATORS, type RunStats } from "../eval/index.js";
import { PALETTE, type Figure } from "./plotly.js";
import type { NamedFigure, OmittedFigure } from "./report-figures.js";
import { transferScatterFigure } from "./transfer-figure.js";
import { operatorColor } from "./tree-figures.js";

const label = (s: RunStats) => `${s.harness} · ${s.run_id}`;
/** Operator initials on the lineage (Debug is B: D is Draft's). */
const INITIAL: Record<string, string> = { draft: "D", improve: "I", debug: "B", crossover: "C" };

/**
 * Two panels per operator, a bar per run: the beat-parent rate (left) and the mean gain over the best valid
 * parent in the metric's units, > 0 = better (right). Drafts have no parent, so no bar; hover gives the counts.
 */
export function operatorStatsFigure(stats: readonly RunStats[]): Figure {
  const ops = [...new Set(stats.flatMap((s) => s.operators.filter((o) => o.nodes > 0).map((o) => o.operator)))];
  const data = stats.flatMap((s, i) => {
    const rows = ops.map((op) => s.operators.find((o) => o.operator === op));
    const common = {
      type: "bar",
      name: label(s),
      legendgroup: s.run_id,
      marker: { color: PALETTE[i % PALETTE.length] },
      x: ops,
    };
    return [
      {
        ...common,
        y: rows.map((o) => o?.beat_parent_rate ?? null),
        customdata: rows.map((o) => `${o?.beat_parent ?? 0}/${o?.with_valid_parent ?? 0}`),
        hovertemplate: "%{x}: beat its parent %{y:.0%} (%{customdata})<extra>%{fullData.name}</extra>",
      },
      {
        ...common,
        showlegend: false,
        xaxis: "x2",
        yaxis: "y2",
        y: rows.map((o) => o?.mean_gain ?? null),
        customdata: rows.map((o) => o?.total_gain ?? null),
        hovertemplate: "%{x}: mean gain %{y:.4g} (total %{customdata:.4g})<extra>%{fullData.name}</extra>",
      },
    ];
  });
  return {
    data,
    layout: {
      title: { text: "Per operator: beat-parent rate and mean gain over the best parent" },
      barmode: "group",
      xaxis: { domain: [0, 0.46] },
      yaxis: { title: { text: "beat-parent rate" }, range: [0, 1], tickformat: ".0%" },
      xaxis2: { domain: [0.56, 1], anchor: "y2" },
      yaxis2: { title: { text: "mean gain (metric units, > 0 better)" }, anchor: "x2", zeroline: true },
    },
  };
}

/** The best validation score so far over the 0-based steps, one line per run, a marker at each new record. */
export function bestScoreCurveFigure(stats: readonly RunStats[]): Figure {
  const data = stats.flatMap((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    const own = s.curve.filter((p) => p.best !== null);
    const records = own.filter((p) => p.record);
    return [
      {
        type: "scatter",
        mode: "lines",
        name: label(s),
        legendgroup: s.run_id,
        line: { shape: "hv", color },
        x: own.map((p) => p.step),
        y: own.map((p) => p.best),
        hovertemplate: "step %{x}: best %{y:.4g}<extra>%{fullData.name}</extra>",
      },
      {
        type: "scatter",
        mode: "markers",
        name: `${label(s)} records`,
        legendgroup: s.run_id,
        showlegend: false,
        marker: { color, size: 8, line: { color: "#fff", width: 1 } },
        x: records.map((p) => p.step),
        y: records.map((p) => p.best),
        text: records.map((p) => `${p.node_id} ${p.operator}, gain ${Number(p.gain.toPrecision(4))}`),
        hovertemplate: "step %{x}: %{text}<extra>new record</extra>",
      },
    ];
  });
  const dir = stats.length && stats.every((s) => !s.higher_is_better) ? " (lower is better)" : "";
  return {
    data,
    layout: {
      title: { text: "Best validation score so far, records marked" },
      xaxis: { title: { text: "step (0-based)" } },
      yaxis: { title: { text: `best validation score${dir}` } },
    },
  };
}

/** Each run's champion lineage: score against step, from the first draft to the champion, markers by operator. */
export function lineageFigure(stats: readonly RunStats[]): Figure {
  const data = stats
    .filter((s) => s.lineage.length)
    .map((s, i) => ({
      type: "scatter",
      mode: "lines+markers+text",
      name: label(s),
      line: { color: PALETTE[i % PALETTE.length], width: 1.5 },
      marker: { size: 9, color: PALETTE[i % PALETTE.length] },
      x: s.lineage.map((l) => l.step),
      y: s.lineage.map((l) => l.valid_score),
      text: s.lineage.map((l) => INITIAL[l.operator] ?? l.operator.charAt(0).toUpperCase()),
      textposition: "top center",
      customdata: s.lineage.map(
        (l) => `${l.node_id} ${l.operator}${l.gain === null ? "" : `, gain ${Number(l.gain.toPrecision(4))}`}`,
      ),
      hovertemplate: "step %{x}: %{customdata}, score %{y:.4g}<extra>%{fullData.name}</extra>",
    }));
  return {
    data,
    layout: {
      title: { text: "Champion lineage: first draft to champion (D draft, I improve, B debug, C crossover)" },
      xaxis: { title: { text: "step (0-based)" } },
      yaxis: { title: { text: "validation score" } },
    },
  };
}

/** Stacked bars, one per run: each operator's share of the run's validation gains, early (light) and late (solid). */
export function gainShareFigure(stats: readonly RunStats[]): Figure {
  const withGain = stats.filter((s) => s.gain_share.total_gain > 0);
  const order = (k: string) => {
    const [op, phase] = k.split("|") as [string, string];
    const i = (TRAJECTORY_OPERATORS as readonly string[]).indexOf(op);
    return 2 * (i < 0 ? TRAJECTORY_OPERATORS.length : i) + (phase === "late" ? 1 : 0);
  };
  const keys = [
    ...new Set(
      withGain.flatMap((s) => s.gain_share.rows.filter((r) => r.gain > 0).map((r) => `${r.operator}|${r.phase}`)),
    ),
  ].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const splits = new Set(withGain.map((s) => `steps ≥ ${s.gain_share.late_from_step} of ${s.gain_share.step_budget}`));
  const late = splits.size === 1 ? [...splits][0]! : "from the configured fraction of each run's step budget";
  return {
    data: keys.map((k) => {
      const [op, phase] = k.split("|") as [string, string];
      return {
        type: "bar",
        name: `${op}, ${phase}`,
        marker: { color: operatorColor(op), opacity: phase === "late" ? 1 : 0.45 },
        x: withGain.map(label),
        y: withGain.map((s) => s.gain_share.rows.find((r) => r.operator === op && r.phase === phase)?.share ?? 0),
        hovertemplate: "%{y:.1%}<extra>%{fullData.name}</extra>",
      };
    }),
    layout: {
      title: { text: `Share of validation gains by operator and phase (late = ${late})` },
      barmode: "stack",
      legend: { traceorder: "normal" },
      yaxis: { title: { text: "share of the run's validation gain" }, range: [0, 1], tickformat: ".0%" },
    },
  };
}

/** The analysis figures of a report (none without runs; the gain share only where some run gained). */
export function analysisFigures(stats: readonly RunStats[]): NamedFigure[] {
  return analysisFigureSet(stats).figures;
}

/** The analysis figures plus the ones a report leaves out, each with one line saying why (never drawn empty). */
export function analysisFigureSet(stats: readonly RunStats[]): { figures: NamedFigure[]; omitted: OmittedFigure[] } {
  if (!stats.length) return { figures: [], omitted: [] };
  const figures: NamedFigure[] = [
    { id: "operator-stats", title: "Per operator: beat-parent rate and mean gain", figure: operatorStatsFigure(stats) },
    { id: "best-score-curve", title: "Best-score curve with records", figure: bestScoreCurveFigure(stats) },
  ];
  const omitted: OmittedFigure[] = [];
  const lineage = { id: "champion-lineage", title: "Champion lineage" };
  if (stats.some((s) => s.lineage.length)) figures.push({ ...lineage, figure: lineageFigure(stats) });
  else omitted.push({ ...lineage, reason: "no run has a champion (no node scored)" });
  const transfer = { id: "validation-test-transfer", title: "Validation vs hidden test per node" };
  if (stats.some((s) => s.transfer.points.length)) figures.push({ ...transfer, figure: transferScatterFigure(stats) });
  else omitted.push({ ...transfer, reason: "no node has both a validation and a hidden test score" });
  const share = { id: "gain-share-phase", title: "Share of validation gains by operator and phase" };
  if (stats.some((s) => s.gain_share.total_gain > 0)) figures.push({ ...share, figure: gainShareFigure(stats) });
  else omitted.push({ ...share, reason: "no run improved on its first scored node, so there are no gains to share" });
  return { figures, omitted };
}
