import { recordTrace, type Evaluation, type SearchEfficiency, type SearchRows } from "../eval/index.js";
import { gradeDistributionFigure, metricBarsFigure, modalityBarsFigure } from "./grade-figures.js";
import { operatorGainsFigure, promptSizeFigure } from "./operator-figures.js";
import type { Figure } from "./plotly.js";
import { bestOverTimeFigure, searchTreeFigure } from "./tree-figures.js";

export interface NamedFigure {
  /** A slug: the figure's HTML id and PNG file name. */
  readonly id: string;
  readonly title: string;
  readonly figure: Figure;
}

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
  const out: NamedFigure[] = [];
  const { evaluation: ev, efficiency: eff, search } = d;
  const add = (id: string, title: string, figure: Figure) => out.push({ id, title, figure });

  if (ev.groups.length) {
    const graded = ev.groups.some((g) => g.medal_average.n > 0);
    if (graded)
      add(
        "medal-average",
        "Medal Average avg@k (mean ± std)",
        metricBarsFigure(
          ev.groups.map((g) => ({ group: g.group, ...g.medal_average })),
          { title: "Medal Average avg@k", yTitle: "share of tasks with a medal" },
        ),
      );
    if (ev.groups.some((g) => g.normalized.n > 0))
      add(
        "normalized-score",
        "Normalised score avg@k (mean ± std)",
        metricBarsFigure(
          ev.groups.map((g) => ({ group: g.group, ...g.normalized })),
          { title: "Normalised score avg@k (0 = trivial, 1 = reference)", yTitle: "normalised score" },
        ),
      );
    add(
      "valid-rate",
      "Valid Rate avg@k (mean ± std)",
      metricBarsFigure(
        ev.groups.map((g) => ({ group: g.group, ...g.valid_rate })),
        { title: "Valid Rate avg@k", yTitle: "share of tasks with a valid submission" },
      ),
    );
    add("grade-distribution", "Grade distribution", gradeDistributionFigure(ev.groups));
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
  return out;
}
