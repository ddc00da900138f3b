import type { Figure } from "./plotly.js";

/** Plotly symbols per operator (colour carries the score). */
const OPERATOR_SYMBOL: Record<string, string> = { draft: "circle", improve: "triangle-up", debug: "x", crossover: "diamond" };
/** Plotly colours per operator, for charts that colour by operator. */
export const OPERATOR_COLOR: Record<string, string> = { draft: "#4c78a8", improve: "#54a24b", debug: "#e45756", crossover: "#b279a2", unknown: "#9d9d9d" };
export const operatorColor = (op: string) => OPERATOR_COLOR[op] ?? OPERATOR_COLOR.unknown!;

export interface TreeNodeRow {
  readonly node_id: string;
  readonly step: number | null;
  readonly generation: number | null;
  readonly operator: string;
  readonly parents: readonly string[];
  readonly valid_score: number | null;
  readonly status?: string | null;
}

/**
 * The search tree of one run: x = step, y = generation (lineage depth), an edge from each parent to
 * its child, marker symbol and legend by operator, marker colour by validation score (failed nodes grey).
 */
export function searchTreeFigure(nodes: readonly TreeNodeRow[], opts: { title?: string; higherIsBetter?: boolean } = {}): Figure {
  const pos = new Map(nodes.map((n, i) => [n.node_id, { x: n.step ?? i, y: n.generation ?? 0 }]));
  const ex: (number | null)[] = [];
  const ey: (number | null)[] = [];
  for (const n of nodes) {
    for (const p of n.parents) {
      const a = pos.get(p);
      const b = pos.get(n.node_id)!;
      if (a) ex.push(a.x, b.x, null), ey.push(a.y, b.y, null);
    }
  }
  const scores = nodes.flatMap((n) => (n.valid_score === null ? [] : [n.valid_score]));
  const cmin = Math.min(...scores);
  const cmax = Math.max(...scores);
  const ops = [...new Set(nodes.map((n) => n.operator))];
  const traces: Record<string, unknown>[] = [
    { type: "scatter", mode: "lines", x: ex, y: ey, line: { color: "#c7c7c7", width: 1 }, hoverinfo: "skip", showlegend: false },
  ];
  ops.forEach((op, i) => {
    const own = nodes.filter((n) => n.operator === op);
    traces.push({
      type: "scatter", mode: "markers", name: op,
      x: own.map((n) => pos.get(n.node_id)!.x), y: own.map((n) => pos.get(n.node_id)!.y),
      text: own.map((n) => `${n.node_id} (${op})<br>valid ${n.valid_score ?? n.status ?? "failed"}`), hoverinfo: "text",
      marker: {
        symbol: OPERATOR_SYMBOL[op] ?? "square", size: 11, line: { color: "#333", width: 1 },
        color: own.map((n) => (n.valid_score === null ? (scores.length ? cmin : 0) : n.valid_score)),
        colorscale: "Viridis", reversescale: opts.higherIsBetter === false,
        cmin: scores.length ? cmin : 0, cmax: scores.length ? cmax : 1,
        showscale: i === 0 && scores.length > 0, colorbar: { title: { text: "valid score" } },
        opacity: own.map((n) => (n.valid_score === null ? 0.35 : 1)),
      },
    });
  });
  return {
    data: traces,
    layout: {
      title: { text: opts.title ?? "Search tree" },
      xaxis: { title: { text: "step" } }, yaxis: { title: { text: "generation" } },
      legend: { title: { text: "operator" }, orientation: "h", x: 0, y: -0.22 },
      margin: { t: 48, r: 24, b: 96, l: 56 },
    },
  };
}

export interface TraceRow {
  readonly run_id: string;
  readonly harness: string;
  readonly index: number;
  readonly best: number | null;
}

/** Best validation score so far against node index, one line per run, one colour per harness. */
export function bestOverTimeFigure(points: readonly TraceRow[], opts: { title?: string; yTitle?: string } = {}): Figure {
  const palette = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#b279a2", "#72b7b2"];
  const harnesses = [...new Set(points.map((p) => p.harness))].sort();
  const runs = [...new Set(points.map((p) => p.run_id))];
  const shown = new Set<string>();
  const data = runs.map((run) => {
    const own = points.filter((p) => p.run_id === run && p.best !== null).sort((a, b) => a.index - b.index);
    const h = own[0]?.harness ?? points.find((p) => p.run_id === run)!.harness;
    const first = !shown.has(h);
    shown.add(h);
    return {
      type: "scatter", mode: "lines", line: { shape: "hv", color: palette[harnesses.indexOf(h) % palette.length] },
      name: h, legendgroup: h, showlegend: first, text: own.map(() => run), hovertemplate: "%{text}: %{y}<extra></extra>",
      x: own.map((p) => p.index), y: own.map((p) => p.best),
    };
  });
  return {
    data,
    layout: { title: { text: opts.title ?? "Best validation score over time" }, xaxis: { title: { text: "node (search step)" } }, yaxis: { title: { text: opts.yTitle ?? "best valid score" } } },
  };
}
