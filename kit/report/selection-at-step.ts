import { EvolveConfig, islandMembers, parentProbabilities, type EvoNode } from "../evo/index.js";
import type { Figure } from "./plotly.js";

/** One island member at a step with the probability each rule gives it. */
export interface SelectionRow {
  readonly nodeId: string;
  readonly operator: string;
  readonly validScore: number | null;
  /** OpenMLE-Evo three-factor rule: utility u_i and P(i) = softmax(u_i / T). */
  readonly utility: number;
  readonly pThreeFactor: number;
  /** AIRA-Evo rule: P(i) = softmax(f̃_i / T_aira), f̃ = fitness min-max normalised over the run's scored nodes,
   * clipped. */
  readonly pAira: number;
  /** The node issued at this step took this member as a parent. */
  readonly chosen: boolean;
}

export interface SelectionAtStep {
  readonly step: number;
  readonly island: number;
  /** The operator of the node issued at this step (null when the run has no node at that step). */
  readonly operator: string | null;
  readonly rows: readonly SelectionRow[];
  /** The rule this run sampled with: "three-factor" (openmle), "aira-evo", or null (aide/mcts select otherwise). */
  readonly sampledBy: "three-factor" | "aira-evo" | null;
}

/**
 * The distribution the island harnesses sample parents from at `step`, recomputed from the stored tree as
 * kit/evo's `evoStep` sees it: 1. the nodes issued before `step` (exact for one worker; with more workers some
 * of them were still in flight); 2. the step's island `step mod islands` and its members replayed by
 * `islandMembers`; 3. `parentProbabilities` under the run's settings with the harness set to openmle
 * (three-factor) and to aira-evo (fitness softmax). kit/evo's functions are used as they are.
 */
export function selectionAtStep(nodes: readonly EvoNode[], config: EvolveConfig, step: number): SelectionAtStep {
  const before = nodes.filter((n) => n.step < step);
  const island = step % config.islands;
  const members = islandMembers(before, config.islands, config.islandMaxSize)[island] ?? [];
  const issued = nodes.find((n) => n.step === step) ?? null;
  const three = parentProbabilities(members, before, EvolveConfig.parse({ ...config, harness: "openmle" }));
  const aira = parentProbabilities(members, before, EvolveConfig.parse({ ...config, harness: "aira-evo" }));
  return {
    step,
    island,
    operator: issued?.operator ?? null,
    sampledBy: config.harness === "openmle" ? "three-factor" : config.harness === "aira-evo" ? "aira-evo" : null,
    rows: members.map((m, i) => ({
      nodeId: m.nodeId,
      operator: m.operator,
      validScore: m.validScore,
      utility: three[i]!.utility,
      pThreeFactor: three[i]!.probability,
      pAira: aira[i]!.probability,
      chosen: (issued?.operator === "improve" || issued?.operator === "crossover") && issued.parents.includes(m.nodeId),
    })),
  };
}

/**
 * A step worth showing: the given one, else the last step whose node sampled its parents (improve or
 * crossover) from an island of at least two members; null when the run never sampled.
 */
export function defaultSelectionStep(nodes: readonly EvoNode[], config: EvolveConfig): number | null {
  for (const n of [...nodes].sort((a, b) => b.step - a.step)) {
    if (n.operator !== "improve" && n.operator !== "crossover") continue;
    if (selectionAtStep(nodes, config, n.step).rows.length >= 2) return n.step;
  }
  return null;
}

/** Bars side by side: P(select) of each island member under the three-factor and the AIRA-Evo rule; chosen parents
 * outlined. */
export function selectionAtStepFigure(s: SelectionAtStep, opts: { title?: string } = {}): Figure {
  const order = [...s.rows].sort((a, b) => b.pThreeFactor - a.pThreeFactor);
  const x = order.map((r) => r.nodeId);
  const outline = order.map((r) => (r.chosen ? 3 : 0));
  const mark = (sampled: boolean) => (sampled ? " (sampled by this run)" : "");
  return {
    data: [
      {
        type: "bar",
        name: `three-factor${mark(s.sampledBy === "three-factor")}`,
        x,
        y: order.map((r) => r.pThreeFactor),
        marker: { color: "#4c78a8", line: { color: "#d62728", width: outline } },
        customdata: order.map((r) => r.utility),
        hovertemplate: "%{x}: P=%{y:.3f} (u=%{customdata:.3f})<extra>three-factor</extra>",
      },
      {
        type: "bar",
        name: `AIRA-Evo${mark(s.sampledBy === "aira-evo")}`,
        x,
        y: order.map((r) => r.pAira),
        marker: { color: "#f58518", line: { color: "#d62728", width: outline } },
        hovertemplate: "%{x}: P=%{y:.3f}<extra>AIRA-Evo</extra>",
      },
    ],
    layout: {
      title: {
        text: opts.title ?? `Parent selection at step ${s.step} (island ${s.island}, ${s.rows.length} members)`,
      },
      barmode: "group",
      yaxis: { title: { text: "P(select as parent)" }, rangemode: "tozero" },
      xaxis: {
        title: { text: "island member (red outline: parent the run took)" },
        categoryorder: "array",
        categoryarray: x,
        tickfont: { color: x.map(() => "#333") },
      },
      legend: { orientation: "h", x: 1, xanchor: "right", y: 1.0, yanchor: "bottom" },
      margin: { t: 80, r: 24, b: 56, l: 56 },
      annotations: x
        .map((id, i) =>
          order[i]!.chosen
            ? {
                x: id,
                y: Math.max(order[i]!.pThreeFactor, order[i]!.pAira),
                text: "taken",
                showarrow: false,
                yshift: 10,
                font: { color: "#d62728" },
              }
            : null,
        )
        .filter(Boolean),
    },
  };
}
