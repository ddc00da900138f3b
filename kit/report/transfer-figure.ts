// Validation → hidden test transfer as a figure: every node with both scores, per run (kit/eval validationTransfer).
import type { RunStats } from "../eval/index.js";
import { PALETTE, type Figure } from "./plotly.js";

/** One marker symbol per validation scheme kind, so a holdout's optimism reads apart from a CV's. */
const SYMBOL: Record<string, string> = {
  kfold: "circle",
  time_kfold: "circle-open",
  holdout: "diamond",
  time_holdout: "diamond-open",
  unknown: "x",
};

const rho = (r: number | null) => (r === null ? "" : ` (ρ ${r.toFixed(2)})`);

/**
 * Validation (x) against hidden test (y) per node, one colour per run, the marker's shape the validation scheme
 * of its score; the champion ringed, the best draft boxed, and the line test = validation: a node above it (higher
 * is better) or below it (lower is better) did better on the test than validation said.
 */
export function transferScatterFigure(stats: readonly RunStats[]): Figure {
  const runs = stats.filter((s) => s.transfer.points.length);
  const all = runs.flatMap((s) => s.transfer.points.flatMap((p) => [p.valid, p.test]));
  const [lo, hi] = [Math.min(...all), Math.max(...all)];
  // A ring or box: a filled symbol with a transparent fill and a drawn outline (an open symbol ignores marker.line).
  const data: Record<string, unknown>[] = runs.flatMap((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    const pts = s.transfer.points;
    const mark = (id: string | undefined, name: string, symbol: string) => {
      const p = pts.find((q) => q.node_id === id);
      return p
        ? [
            {
              type: "scatter",
              mode: "markers",
              name: `${name} · ${s.run_id}`,
              legendgroup: s.run_id,
              showlegend: false,
              x: [p.valid],
              y: [p.test],
              hoverinfo: "skip",
              marker: {
                symbol,
                size: 18,
                color: "rgba(0,0,0,0)",
                line: { color: name === "champion" ? "#d62728" : "#333", width: 2 },
              },
            },
          ]
        : [];
    };
    return [
      {
        type: "scatter",
        mode: "markers",
        name: `${s.harness} · ${s.run_id}${rho(s.transfer.spearman)}`,
        legendgroup: s.run_id,
        x: pts.map((p) => p.valid),
        y: pts.map((p) => p.test),
        customdata: pts.map((p) => [p.node_id, p.operator, p.scheme.label]),
        marker: { color, size: 9, symbol: pts.map((p) => SYMBOL[p.scheme.kind] ?? "x"), opacity: 0.85 },
        hovertemplate:
          "%{customdata[0]} (%{customdata[1]}): validation %{x:.4g}, hidden test %{y:.4g}<br>validated by " +
          "%{customdata[2]}<extra>%{fullData.name}</extra>",
      },
      ...mark(s.transfer.champion_vs_draft.champion?.nodeId, "champion", "circle"),
      ...mark(s.transfer.champion_vs_draft.bestDraft?.nodeId, "best draft", "square"),
    ];
  });
  data.push({
    type: "scatter",
    mode: "lines",
    name: "test = validation",
    x: [lo, hi],
    y: [lo, hi],
    hoverinfo: "skip",
    line: { color: "#999", dash: "dash", width: 1 },
  });
  const dir = runs.every((s) => s.higher_is_better) ? "higher" : runs.every((s) => !s.higher_is_better) ? "lower" : "";
  return {
    data,
    layout: {
      title: { text: "Validation vs hidden test per node (ring: champion, box: best draft; shape: validation scheme)" },
      xaxis: { title: { text: `validation score${dir ? ` (${dir} is better)` : ""}` } },
      yaxis: { title: { text: "hidden test score" } },
      legend: { orientation: "h", y: -0.2 },
      annotations: [
        {
          text: "● k-fold CV  ◆ holdout  × scheme unknown",
          xref: "paper",
          yref: "paper",
          x: 1,
          y: 1.02,
          xanchor: "right",
          yanchor: "bottom",
          showarrow: false,
          font: { size: 11, color: "#555" },
        },
      ],
    },
  };
}
