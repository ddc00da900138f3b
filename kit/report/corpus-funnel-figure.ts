// The gym corpus's funnel beside the paper's (Fig. 3), for notebook 01. Report does not import gym (no such
// edge): the figure takes the shapes it reads structurally, which kit/gym's funnelTable(...) and PAPER_FUNNEL have.
import type { Figure } from "./plotly.js";

/** A stage of the kit's funnel: funnelTable(...).stages[i] has these fields. */
export interface FunnelFigureStage {
  readonly stage: string;
  /** "candidates" or "tasks": what the stage counts. */
  readonly unit: string;
  readonly entered: number;
  readonly kept: number;
  readonly keptCandidates: number;
  /** Candidates with a kept item / all candidates; null without candidates. */
  readonly candidateShare: number | null;
}

/** A stage of the paper's funnel: PAPER_FUNNEL.stages[i]. */
export interface PaperFigureStage {
  readonly label: string;
  readonly count: number;
  /** Of the paper's sources (~11,000 competitions). */
  readonly share: number;
}

const KIT = "#4c78a8";
const PAPER = "#f58518";
const pct = (x: number | null) => (x === null ? "—" : `${(100 * x).toFixed(0)}%`);

/** A long stage label on lines of at most `width` characters (plotly breaks ticks at <br> only). */
export function wrapLabel(label: string, width = 16): string {
  const lines: string[] = [];
  for (const word of label.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join("<br>");
}

/**
 * Two panels on one 0–100% axis: left, the share of the kit's candidates still in the funnel after each stage
 * (a candidate counts while one of its framed tasks is kept; hover gives the stage's own entered and kept counts);
 * right, the paper's competition branch, the share of its ~11,000 competitions after each stage.
 */
export function corpusFunnelFigure(
  kit: { readonly candidates: number; readonly stages: readonly FunnelFigureStage[] },
  paper: { readonly citation: string; readonly stages: readonly PaperFigureStage[] },
): Figure {
  return {
    data: [
      {
        type: "bar",
        name: `this kit's corpus (${kit.candidates.toLocaleString("en-US")} candidates)`,
        x: kit.stages.map((s) => s.stage),
        y: kit.stages.map((s) => s.candidateShare),
        text: kit.stages.map((s) => pct(s.candidateShare)),
        textposition: "outside",
        customdata: kit.stages.map((s) => [s.keptCandidates, s.unit, s.entered, s.kept]),
        hovertemplate:
          "%{x}: %{customdata[0]} candidates kept (%{y:.1%})<br>the stage counts %{customdata[1]}: " +
          "%{customdata[3]} of %{customdata[2]} kept<extra></extra>",
        marker: { color: KIT },
      },
      {
        type: "bar",
        name: "the paper's competition branch (Fig. 3)",
        xaxis: "x2",
        yaxis: "y2",
        x: paper.stages.map((s) => wrapLabel(s.label)),
        customdata: paper.stages.map((s) => s.label),
        y: paper.stages.map((s) => s.share),
        text: paper.stages.map((s) => `${pct(s.share)} (${s.count.toLocaleString("en-US")})`),
        textposition: "outside",
        hovertemplate: `%{customdata}: %{y:.0%} of the sources kept (${paper.citation})<extra></extra>`,
        marker: { color: PAPER },
      },
    ],
    layout: {
      title: { text: "Share of sources kept after each funnel stage: this kit's corpus beside the paper's" },
      showlegend: true,
      legend: { orientation: "h", y: -0.32 },
      xaxis: { domain: [0, 0.48], title: { text: "kit stage" } },
      yaxis: { title: { text: "share of sources kept" }, range: [0, 1.12], tickformat: ".0%" },
      xaxis2: { domain: [0.54, 1], anchor: "y2", title: { text: "paper stage" }, tickangle: 0, automargin: true },
      yaxis2: { anchor: "x2", range: [0, 1.12], tickformat: ".0%", showticklabels: false },
      margin: { b: 150 },
    },
  };
}
