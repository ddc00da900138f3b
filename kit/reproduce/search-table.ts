// The table of a search experiment: one row per arm (avg@k over repeats), the paper's rows below it, labelled.
import { credit } from "../erl/index.js";
import { meanStd, natureBench } from "../eval/index.js";
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
 * score_r = mean over the normalisable tasks (reference beats trivial) of credit = max(0, normalised) (0 for a run
 * without a champion; erl's `credit`, as the loop's held-out measures).
 * On MLE-bench leaderboards also medal_r = share of the repeat's graded tasks whose champion won any medal
 * (Medal Average, %) and rank_r = their mean Human Rank.
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
    const valid = repeats.map((r) => {
      const of = mine.filter((c) => c.repeat === r);
      return of.filter((c) => c.testScore !== null).length / of.length;
    });
    const score = repeatScores(mine);
    // On leaderboards (the paper preset): Medal Average = share of the repeat's tasks with any medal, Human Rank.
    const graded = mine.filter((c) => c.grade !== null);
    const medal = repeats.flatMap((r) => {
      const of = graded.filter((c) => c.repeat === r);
      return of.length ? [of.filter((c) => c.grade !== "none").length / of.length] : [];
    });
    const rank = repeats.flatMap((r) => {
      const of = graded.filter((c) => c.repeat === r);
      return of.length ? [of.reduce((t, c) => t + c.humanRank!, 0) / of.length] : [];
    });
    const gaps = spec.metrics.some((m) => m === "match-sota" || m === "surpass-sota") ? referenceGapRates(mine) : null;
    const pct = (xs: number[]) => {
      const m = meanStd(xs.map((x) => 100 * x));
      return m.n ? `${m.mean.toFixed(0)} ± ${m.std.toFixed(0)} %` : "–";
    };
    return {
      source: `kit (${preset})`,
      row: arm.label,
      values: {
        runs: String(mine.length),
        "valid-rate": fmt(valid, 2),
        "normalised-score": fmt(score, 3),
        ...(gaps ? { "match-sota": pct(gaps.match), "surpass-sota": pct(gaps.surpass) } : {}),
        ...(medal.length
          ? {
              "medal-average": fmt(
                medal.map((x) => 100 * x),
                2,
              ),
              "human-rank": fmt(rank, 4),
            }
          : {}),
        k: String(repeats.length),
      },
    };
  });
  return [...kit, ...referenceRows(spec)];
}

/**
 * The normalised score of each repeat r (in repeat order) of some cells: mean over the repeat's normalisable cells
 * of credit = max(0, normalised) (0 without a champion); a repeat without a normalisable cell gives none.
 * searchTable, the per-modality layout and the figure all average these.
 */
export function repeatScores(cells: readonly CellResult[]): number[] {
  const norm = cells.filter((c) => c.normalisable);
  return [...new Set(norm.map((c) => c.repeat))]
    .sort((a, b) => a - b)
    .map((r) => {
      const of = norm.filter((c) => c.repeat === r);
      return of.reduce((t, c) => t + credit(c.testScore !== null, c.normalized), 0) / of.length;
    });
}

/**
 * NatureBench-style rates of one arm's cells, per repeat (spec §5, kit/eval `natureBench`): each task's relative
 * gap g = dir · (test − reference) / |reference| to kit/eval's reference baseline (−1 for a run without a
 * champion); Match = share of tasks with g ≥ 0, Surpass = share with g > 0.1. Tasks without a reference score, or
 * with a reference of 0 (the relative gap is undefined), are left out; a repeat without any task gives no rate.
 */
export function referenceGapRates(cells: readonly CellResult[]): { match: number[]; surpass: number[] } {
  const match: number[] = [];
  const surpass: number[] = [];
  for (const r of [...new Set(cells.map((c) => c.repeat))].sort((a, b) => a - b)) {
    const inst = cells
      .filter((c) => c.repeat === r && c.reference !== null && c.reference !== 0 && Number.isFinite(c.reference))
      .map((c) => ({ task_id: c.task, agent: c.testScore, sota: c.reference!, higher_is_better: c.higherIsBetter }));
    if (!inst.length) continue;
    const s = natureBench(inst);
    match.push(s.match_sota_rate);
    surpass.push(s.surpass_sota_rate);
  }
  return { match, surpass };
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

/** The rows as records for an HTML table or a DataFrame: source, setting, every column ("–" where a row has none). */
export function tableRecords(rows: readonly TableRow[]): Record<string, string>[] {
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r.values)))];
  return rows.map((r) => ({
    source: r.source,
    setting: r.row,
    ...Object.fromEntries(cols.map((c) => [c, r.values[c] ?? "–"])),
  }));
}
