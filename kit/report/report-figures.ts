import { recordTrace, type Evaluation, type SearchEfficiency, type SearchRows } from "../eval/index.js";
import { gradeDistributionFigure, metricBarsFigure, modalityBarsFigure } from "./grade-figures.js";
import { operatorGainsFigure, promptSizeFigure } from "./operator-figures.js";
import { escapeHtml, formatNumber, formatPercent } from "./format.js";
import type { Figure } from "./plotly.js";
import { bestOverTimeFigure, searchTreeFigure } from "./tree-figures.js";

/** The normalised score's axis: what 0 and 1 are, and its clip (kit/eval normalizedScore). */
export const NORMALISED_AXIS = "normalised score (clipped to [−1, 2]; 0 = trivial, 1 = kit reference)";

export interface NamedFigure {
  /** A slug: the figure's HTML id and PNG file name. */
  readonly id: string;
  readonly title: string;
  readonly figure: Figure;
}

/** A figure left out because it has nothing to show for these runs, with the one line saying why. */
export interface OmittedFigure {
  readonly id: string;
  readonly title: string;
  readonly reason: string;
}

/** One muted line per figure left out, for the report page. */
export const omittedHtml = (omitted: readonly OmittedFigure[]) =>
  omitted
    .map(
      (o) =>
        `<p class="openmle-muted openmle-omitted" data-figure="${escapeHtml(o.id)}"><b>${escapeHtml(o.title)}</b> ` +
        `left out: ${escapeHtml(o.reason)}.</p>`,
    )
    .join("\n");

export interface ReportData {
  readonly evaluation: Evaluation;
  readonly efficiency: SearchEfficiency;
  readonly search: SearchRows;
}

/**
 * The evaluation and search-statistics figures of a report, built from evaluation and search rows (pure);
 * with `maxTrees` > 0 also the first runs' search trees (the report itself draws trees with `treeViewHtml`).
 */
export function reportFigures(d: ReportData, opts: { maxTrees?: number } = {}): NamedFigure[] {
  return reportFigureSet(d, opts).figures;
}

/**
 * `reportFigures` plus the figures left out because they would be (near-)empty: the grade distribution when no
 * task has a leaderboard (every run "ungraded"), an avg@k bar chart of a single group, the per-modality
 * chart when it would hold one bar; each with the value it would have shown where there is one.
 */
export function reportFigureSet(
  d: ReportData,
  opts: { maxTrees?: number } = {},
): { figures: NamedFigure[]; omitted: OmittedFigure[] } {
  const out: NamedFigure[] = [];
  const omitted: OmittedFigure[] = [];
  const { evaluation: ev, efficiency: eff, search } = d;
  const one = ev.groups.length === 1 ? ev.groups[0]! : null;
  const oneBar = (v: { mean: number; n: number }, show: (x: number) => string | null = formatPercent) =>
    `one group only (${one!.group}: ${show(v.mean) ?? "—"}, n=${v.n}), nothing to compare; the evaluation table has it`;
  const add = (id: string, title: string, figure: Figure, leftOut?: string | null) =>
    leftOut ? omitted.push({ id, title, reason: leftOut }) : out.push({ id, title, figure });

  if (ev.groups.length) {
    // The paper's measures first (Valid Rate, Medal Average, Human Rank), the normalised score after them.
    const graded = ev.groups.some((g) => g.medal_average.n > 0);
    add(
      "valid-rate",
      "Valid Rate avg@k (mean ± std)",
      metricBarsFigure(
        ev.groups.map((g) => ({ group: g.group, ...g.valid_rate })),
        { title: "Valid Rate avg@k per group", yTitle: "share of tasks with a valid submission" },
      ),
      one && oneBar(one.valid_rate),
    );
    if (graded) {
      add(
        "medal-average",
        "Medal Average avg@k (mean ± std)",
        metricBarsFigure(
          ev.groups.map((g) => ({ group: g.group, ...g.medal_average })),
          { title: "Medal Average avg@k per group", yTitle: "share of graded tasks with a medal" },
        ),
        one && oneBar(one.medal_average),
      );
      add(
        "human-rank",
        "Human Rank avg@k (mean ± std)",
        metricBarsFigure(
          ev.groups.map((g) => ({ group: g.group, ...g.human_rank })),
          { title: "Human Rank avg@k per group", yTitle: "share of leaderboard entries beaten" },
        ),
        one && oneBar(one.human_rank),
      );
    }
    if (ev.groups.some((g) => g.normalized.n > 0)) {
      const weak = new Set(ev.tasks.filter((t) => t.weak_reference && t.normalized !== null).map((t) => t.task_id));
      add(
        "normalized-score",
        "Normalised score avg@k (mean ± std; secondary to the leaderboard measures)",
        metricBarsFigure(
          ev.groups.map((g) => ({ group: g.group, ...g.normalized })),
          {
            title:
              "Mean normalised test score per group, avg@k" +
              (weak.size ? ` (${weak.size} task${weak.size === 1 ? "" : "s"} with a weak reference)` : ""),
            yTitle: NORMALISED_AXIS,
          },
        ),
        one && oneBar(one.normalized, (x) => formatNumber(x, 3)),
      );
    }
    add(
      "grade-distribution",
      "Grade distribution",
      gradeDistributionFigure(ev.groups),
      graded
        ? null
        : "no task of these runs has a leaderboard (MLE-bench Lite, or a corpus one the kit built), so every run is " +
            "ungraded",
    );
    const modalityBars = ev.groups.flatMap((g) => g.modality);
    add(
      "modality",
      graded ? "Per-modality medal rate" : "Per-modality valid rate",
      modalityBarsFigure(
        ev.groups.flatMap((g) =>
          g.modality.map((m) => ({
            group: g.group,
            modality: m.modality,
            value: graded ? m.medal_rate : m.valid_rate,
          })),
        ),
        {
          title: graded ? "Per-modality medal rate" : "Per-modality valid rate (no leaderboard tasks)",
          yTitle: graded ? "medal rate" : "valid rate",
        },
      ),
      modalityBars.length === 1
        ? `one group on one modality (${modalityBars[0]!.modality}: ` +
            `${formatPercent(modalityBars[0]![graded ? "medal_rate" : "valid_rate"]) ?? "—"}), nothing to compare`
        : null,
    );
  }

  const runIds = [...new Set(search.nodes.map((n) => n.run_id))];
  if (runIds.length) {
    const points = runIds.flatMap((run) => {
      const nodes = search.nodes.filter((n) => n.run_id === run);
      return recordTrace(nodes, search.higherIsBetter.get(run) ?? true).map((p) => ({
        ...p,
        harness: nodes[0]!.harness,
      }));
    });
    add("best-over-time", "Best validation score over time", bestOverTimeFigure(points));
    const harnessOf = new Map(search.nodes.map((n) => [n.run_id, n.harness]));
    const shares = new Map<string, Map<string, number[]>>();
    for (const r of eff.runs) {
      if (!Object.keys(r.gain_share).length) continue;
      const h = harnessOf.get(r.run_id) ?? "unknown";
      const m = shares.get(h) ?? new Map<string, number[]>();
      for (const op of new Set(search.nodes.map((n) => n.operator)))
        m.set(op, [...(m.get(op) ?? []), r.gain_share[op] ?? 0]);
      shares.set(h, m);
    }
    const gainRows = [...shares].flatMap(([harness, m]) =>
      [...m].map(([operator, xs]) => ({ harness, operator, gain_share: xs.reduce((a, b) => a + b, 0) / xs.length })),
    );
    if (gainRows.length) add("operator-gains", "Share of validation gain per operator", operatorGainsFigure(gainRows));
    const withCalls = eff.operators.filter((o) => o.calls > 0);
    if (withCalls.length) add("prompt-size", "Prompt size per operator", promptSizeFigure(withCalls));
    for (const run of runIds.slice(0, opts.maxTrees ?? 4)) {
      const nodes = search.nodes.filter((n) => n.run_id === run);
      add(
        `tree-${run.replace(/[^A-Za-z0-9_-]/g, "_")}`,
        `Search tree of ${run}`,
        searchTreeFigure(nodes, {
          title: `Search tree of ${run} (${nodes[0]!.harness})`,
          higherIsBetter: search.higherIsBetter.get(run),
        }),
      );
    }
  }
  return { figures: out, omitted };
}
