import type { Figure } from "./plotly.js";
import { operatorColor } from "./tree-figures.js";

/** Bars: each operator's share of validation gains (mean over runs), one bar group per harness. */
export function operatorGainsFigure(
  rows: readonly { harness: string; operator: string; gain_share: number }[],
  opts: { title?: string } = {},
): Figure {
  const harnesses = [...new Set(rows.map((r) => r.harness))];
  const ops = [...new Set(rows.map((r) => r.operator))].sort();
  return {
    data: ops.map((op) => ({
      type: "bar",
      name: op,
      marker: { color: operatorColor(op) },
      x: harnesses,
      y: harnesses.map((h) => rows.find((r) => r.harness === h && r.operator === op)?.gain_share ?? 0),
    })),
    layout: {
      title: { text: opts.title ?? "Share of validation gain per operator" },
      barmode: "stack",
      yaxis: { title: { text: "share of gain" }, range: [0, 1] },
    },
  };
}

/** P(i) = softmax(u_i / T) over a pool (the paper's Eq. 4); the one implementation is in kit/util. */
import { softmax } from "../util/softmax.js";
export { softmax };

/** Bars: selection probability of each node in a pool, from its selection utility and temperature T. */
export function selectionProbabilitiesFigure(
  pool: readonly { node_id: string; utility: number; operator?: string }[],
  opts: { title?: string; temperature?: number } = {},
): Figure {
  const p = softmax(
    pool.map((r) => r.utility),
    opts.temperature ?? 1,
  );
  const order = pool.map((r, i) => ({ ...r, p: p[i]! })).sort((a, b) => b.p - a.p);
  const ops = [...new Set(order.map((r) => r.operator ?? "unknown"))];
  return {
    // One trace per operator (legend, colour); the x axis keeps the descending-probability order.
    data: ops.map((op) => {
      const own = order.filter((r) => (r.operator ?? "unknown") === op);
      return {
        type: "bar",
        name: op,
        x: own.map((r) => r.node_id),
        y: own.map((r) => r.p),
        marker: { color: operatorColor(op) },
        customdata: own.map((r) => r.utility),
        hovertemplate: "%{x}: P=%{y:.3f} (u=%{customdata:.3f})<extra></extra>",
      };
    }),
    layout: {
      title: { text: opts.title ?? `Selection probabilities (softmax, T=${opts.temperature ?? 1})` },
      yaxis: { title: { text: "P(select)" } },
      xaxis: { categoryorder: "array", categoryarray: order.map((r) => r.node_id) },
      legend: { title: { text: "operator" } },
    },
  };
}

/** Bars: prompt-size percentiles (characters) per operator. */
export function promptSizeFigure(
  rows: readonly { operator: string; prompt_chars_p50: number; prompt_chars_p90: number; prompt_chars_p99: number }[],
  opts: { title?: string } = {},
): Figure {
  const keys = ["prompt_chars_p50", "prompt_chars_p90", "prompt_chars_p99"] as const;
  return {
    data: keys.map((k) => ({
      type: "bar",
      name: k.replace("prompt_chars_", ""),
      x: rows.map((r) => r.operator),
      y: rows.map((r) => (Number.isFinite(r[k]) ? r[k] : null)),
    })),
    layout: {
      title: { text: opts.title ?? "Prompt size per operator (characters)" },
      barmode: "group",
      yaxis: { title: { text: "characters" } },
    },
  };
}
