// The table of a search experiment: one row per arm (avg@k over repeats), the paper's rows below it, labelled.
import { credit } from "../erl/index.js";
import { meanStd } from "../eval/index.js";
import type { ExperimentSpec, ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";

export const REFERENCE_SOURCE = "paper (reference)";

/** A row of an experiment's table; its values are keyed by the spec's metric ids (plus runs and k). */
export interface TableRow {
  readonly source: string;
  readonly row: string;
  readonly values: Readonly<Record<string, string>>;
}

/**
 * Per arm and repeat r: valid_r = share of tasks whose run has a champion with a hidden test score;
 * score_r = mean over the tasks with baselines of credit = max(0, normalised) (0 for a run without a champion;
 * erl's `credit`, as the loop's held-out measures).
 * The row: mean ± population std over repeats of each (avg@k, as the paper's tables), k = repeats.
 */
export function searchTable(spec: ExperimentSpec, preset: ReproducePreset, cells: readonly CellResult[]): TableRow[] {
  const p = spec.presets[preset]!;
  const fmt = (xs: number[], d: number) => {
    const m = meanStd(xs);
    return m.n ? `${m.mean.toFixed(d)} ± ${m.std.toFixed(d)}` : "–";
  };
  const kit = p.arms.map((arm) => {
    const mine = cells.filter((c) => c.arm === arm.id);
    const repeats = [...new Set(mine.map((c) => c.repeat))].sort((a, b) => a - b);
    const valid: number[] = [];
    const score: number[] = [];
    for (const r of repeats) {
      const of = mine.filter((c) => c.repeat === r);
      valid.push(of.filter((c) => c.testScore !== null).length / of.length);
      const norm = of.filter((c) => c.normalisable);
      if (norm.length)
        score.push(norm.reduce((t, c) => t + credit(c.testScore !== null, c.normalized), 0) / norm.length);
    }
    return {
      source: `kit (${preset})`,
      row: arm.label,
      values: {
        runs: String(mine.length),
        "valid-rate": fmt(valid, 2),
        "normalised-score": fmt(score, 3),
        k: String(repeats.length),
      },
    };
  });
  return [...kit, ...referenceRows(spec)];
}

/** The paper's rows of an experiment, labelled REFERENCE_SOURCE, its numbers as text. */
export function referenceRows(spec: ExperimentSpec): TableRow[] {
  return spec.reference.map((r) => ({
    source: REFERENCE_SOURCE,
    row: r.row,
    values: Object.fromEntries(Object.entries(r.values).map(([k, v]) => [k, String(v)])),
  }));
}

/** The rows as a Markdown table: the union of the rows' columns, "–" where a row has none. */
export function tableMarkdown(rows: readonly TableRow[]): string {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r.values)))];
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return [
    `| source | setting | ${cols.join(" | ")} |`,
    `|---|---|${cols.map(() => "---").join("|")}|`,
    ...rows.map(
      (r) => `| ${esc(r.source)} | ${esc(r.row)} | ${cols.map((c) => esc(r.values[c] ?? "–")).join(" | ")} |`,
    ),
  ].join("\n");
}
