import { formatNumber } from "./format.js";
import { MODEBAR_CLEAR_TOP, PALETTE, type Figure } from "./plotly.js";
import { labelFontPx, operatorInitial, placeTreeLabels } from "./tree-labels.js";
import { treeLayout } from "./tree-layout.js";

/** Plotly symbols per operator (colour carries the score). */
const OPERATOR_SYMBOL: Record<string, string> = {
  draft: "circle",
  improve: "triangle-up",
  debug: "square",
  crossover: "diamond",
};
/** Plotly colours per operator, for charts that colour by operator. */
export const OPERATOR_COLOR: Record<string, string> = {
  draft: "#4c78a8",
  improve: "#54a24b",
  debug: "#e45756",
  crossover: "#b279a2",
  unknown: "#9d9d9d",
};
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

const fmt = (x: number | null) => (x === null ? "none" : (formatNumber(x) ?? "none"));

/**
 * The search tree of one run, laid out as a tidy tree (`treeLayout`, d3-hierarchy): each node under its
 * first parent, drafts under the run's root, depth downwards. Solid grey edges link a node to its first
 * parent, dashed purple edges to further (crossover) parents. Scored nodes: symbol by operator, colour by
 * validation score on a scale whose bright end is always the better end (reversed when lower is better).
 * Nodes without a score (failed, timed out, invalid): grey crosses with their status in the hover. The
 * champion gets a red ring. Every marker carries its node id as `customdata` (for click handlers).
 */
export function searchTreeFigure(
  nodes: readonly TreeNodeRow[],
  opts: { title?: string; higherIsBetter?: boolean; champion?: string | null; widthPx?: number } = {},
): Figure {
  const hib = opts.higherIsBetter !== false;
  const lay = treeLayout(nodes.map((n, i) => ({ nodeId: n.node_id, parents: n.parents, step: n.step ?? i })));
  const xy = (id: string) => lay.pos.get(id)!;
  const edgeTrace = (edges: readonly (readonly [string, string])[], name: string, line: Record<string, unknown>) => {
    const x: (number | null)[] = [];
    const y: (number | null)[] = [];
    for (const [a, b] of edges) (x.push(xy(a).x, xy(b).x, null), y.push(xy(a).y, xy(b).y, null));
    return { type: "scatter", mode: "lines", name, x, y, line, hoverinfo: "skip", showlegend: edges.length > 0 };
  };
  const scored = nodes.filter((n) => n.valid_score !== null && Number.isFinite(n.valid_score));
  const failed = nodes.filter((n) => !scored.includes(n));
  const scores = scored.map((n) => n.valid_score!);
  const cmin = scores.length ? Math.min(...scores) : 0;
  const cmax = scores.length ? Math.max(...scores) : 1;
  // Printed labels ("I 2.998", tree-labels.ts) on explicit axis ranges, so their pixel boxes are known.
  const xs = [...lay.pos.values()].map((p) => p.x);
  const depth = Math.max(1, ...[...lay.pos.values()].map((p) => p.y));
  const height = Math.min(900, 220 + 55 * depth);
  const xRange: [number, number] = [Math.min(0, ...xs) - 0.7, Math.max(0, ...xs) + 0.7];
  const yRange: [number, number] = [0.5, depth + 0.7];
  const byId = new Map(nodes.map((n) => [n.node_id, n]));
  const lineage = new Set<string>();
  for (const stack = opts.champion ? [opts.champion] : []; stack.length;) {
    const id = stack.pop()!;
    if (lineage.has(id) || !byId.has(id)) continue;
    lineage.add(id);
    stack.push(...byId.get(id)!.parents);
  }
  const rank = [...scored].sort((a, b) => (hib ? b.valid_score! - a.valid_score! : a.valid_score! - b.valid_score!));
  const labels = placeTreeLabels(
    rank.map((n, i) => ({
      id: n.node_id,
      ...xy(n.node_id),
      initial: operatorInitial(n.operator),
      score: fmt(n.valid_score),
      priority: n.node_id === opts.champion ? -rank.length - 1 : lineage.has(n.node_id) ? i - rank.length : i,
      radiusPx: n.node_id === opts.champion ? 12 : undefined,
    })),
    [...lay.pos.values()],
    {
      widthPx: (opts.widthPx ?? 1000) - 56 - 24 - 70, // margins and colour bar
      heightPx: height - MODEBAR_CLEAR_TOP - 40,
      xRange,
      yRange,
      fontPx: labelFontPx(nodes.length),
      markerPx: 13,
    },
  );
  const textfont = { size: labelFontPx(nodes.length), color: "#222" };
  const hover = (n: TreeNodeRow) =>
    `<b>${n.node_id}</b> ${n.operator} · step ${n.step ?? "?"}<br>status ` +
    `${n.status ?? "unknown"}<br>valid score ` +
    `${fmt(n.valid_score)}${n.parents.length ? `<br>parents ${n.parents.join(", ")}` : ""}`;
  const traces: Record<string, unknown>[] = [
    edgeTrace(lay.edges, "parent", { color: "#b0b0b0", width: 1.2 }),
    edgeTrace(lay.crossEdges, "crossover parent", { color: "#b279a2", width: 1.5, dash: "dash" }),
  ];
  const ops = [...new Set(scored.map((n) => n.operator))];
  ops.forEach((op, i) => {
    const own = scored.filter((n) => n.operator === op);
    traces.push({
      type: "scatter",
      mode: "markers+text",
      name: `${op} (${operatorInitial(op)})`,
      customdata: own.map((n) => n.node_id),
      x: own.map((n) => xy(n.node_id).x),
      y: own.map((n) => xy(n.node_id).y),
      text: own.map((n) => (n.node_id === opts.champion ? "" : (labels.get(n.node_id) ?? ""))),
      textposition: "bottom center",
      textfont,
      hovertext: own.map(hover),
      hoverinfo: "text",
      marker: {
        symbol: OPERATOR_SYMBOL[op] ?? "square",
        size: 13,
        line: { color: "#333", width: 1 },
        color: own.map((n) => n.valid_score),
        colorscale: "Viridis",
        reversescale: !hib,
        cmin,
        cmax,
        showscale: i === 0,
        colorbar: {
          title: { text: `valid score (${hib ? "higher" : "lower"} is better)`, side: "right" },
          thickness: 12,
        },
      },
    });
  });
  if (failed.length) {
    traces.push({
      type: "scatter",
      mode: "markers",
      name: "no score (failed)",
      customdata: failed.map((n) => n.node_id),
      x: failed.map((n) => xy(n.node_id).x),
      y: failed.map((n) => xy(n.node_id).y),
      text: failed.map(hover),
      hoverinfo: "text",
      marker: { symbol: "x-thin-open", size: 12, color: "#8c8c8c", line: { color: "#8c8c8c", width: 2.5 } },
    });
  }
  const champ = opts.champion ? lay.pos.get(opts.champion) : undefined;
  if (champ) {
    traces.push({
      type: "scatter",
      name: "champion",
      mode: "markers+text",
      x: [champ.x],
      y: [champ.y],
      text: [labels.get(opts.champion!) ?? ""],
      textposition: "bottom center",
      textfont: { ...textfont, color: "#d62728" },
      customdata: [opts.champion],
      hoverinfo: "skip",
      marker: { symbol: "circle-open", size: 24, color: "#d62728", line: { width: 2.5, color: "#d62728" } },
    });
  }
  return {
    data: traces,
    layout: {
      title: { text: opts.title ?? "Search tree" },
      hovermode: "closest",
      height,
      xaxis: { visible: false, zeroline: false, range: xRange },
      yaxis: { title: { text: "depth (draft = 1)" }, range: [yRange[1], yRange[0]], dtick: 1, zeroline: false },
      legend: { orientation: "h", x: 0, y: -0.08 },
      margin: { t: MODEBAR_CLEAR_TOP, r: 24, b: 40, l: 56 },
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
export function bestOverTimeFigure(
  points: readonly TraceRow[],
  opts: { title?: string; yTitle?: string } = {},
): Figure {
  const harnesses = [...new Set(points.map((p) => p.harness))].sort();
  const runs = [...new Set(points.map((p) => p.run_id))];
  const shown = new Set<string>();
  const data = runs.map((run) => {
    const own = points.filter((p) => p.run_id === run && p.best !== null).sort((a, b) => a.index - b.index);
    const h = own[0]?.harness ?? points.find((p) => p.run_id === run)!.harness;
    const first = !shown.has(h);
    shown.add(h);
    return {
      type: "scatter",
      mode: "lines",
      line: { shape: "hv", color: PALETTE[harnesses.indexOf(h) % PALETTE.length] },
      name: h,
      legendgroup: h,
      showlegend: first,
      text: own.map(() => run),
      hovertemplate: "%{text}: %{y}<extra></extra>",
      x: own.map((p) => p.index),
      y: own.map((p) => p.best),
    };
  });
  return {
    data,
    layout: {
      title: { text: opts.title ?? "Best validation score over time" },
      xaxis: { title: { text: "node (search step)" } },
      yaxis: { title: { text: opts.yTitle ?? "best valid score" } },
    },
  };
}
