// The table of a search experiment: one row per arm (avg@k over repeats), the paper's rows below it, labelled.
import { credit } from "../erl/index.js";
import { meanStd, natureBench } from "../eval/index.js";
import { kitSource, type ExperimentSpec, type ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";

export const REFERENCE_SOURCE = "paper (reference)";

/** A row of an experiment's table; its values are keyed by the spec's metric ids (plus runs and k). */
export interface TableRow {
  readonly source: string;
  readonly row: string;
  readonly values: Readonly<Record<string, string>>;
}

/**
 * Per arm and repeat r: valid_r = share of tasks whose run has a champion with a hidden test score; on leaderboards
 * (MLE-bench Lite, or the kit's corpus leaderboards: `repeatMedals`) medal_r = share of the repeat's graded tasks whose
 * champion won any medal (Medal Average, %) and rank_r = their mean Human Rank; score_r = mean over the normalisable
 * tasks (reference beats trivial) of credit = max(0, normalised), the normalised score clipped to [−1, 2] (0 for a run
 * without a champion; erl's `credit`, as the loop's held-out measures), marked `weakMark` where a task's reference is
 * weak. The row, in the paper's order (Valid Rate, Medal Average, Human Rank, then the normalised score): mean ±
 * population std over repeats of each (avg@k, as the paper's tables), k = repeats.
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
    const { medal, rank } = repeatMedals(mine);
    const score = repeatScores(mine);
    const gaps = spec.metrics.some((m) => m === "match-sota" || m === "surpass-sota") ? referenceGapRates(mine) : null;
    const pct = (xs: number[]) => {
      const m = meanStd(xs.map((x) => 100 * x));
      return m.n ? `${m.mean.toFixed(0)} ± ${m.std.toFixed(0)} %` : "–";
    };
    return {
      source: kitSource(spec, preset),
      row: arm.label,
      values: {
        runs: String(mine.length),
        "valid-rate": fmt(valid, 2),
        ...(medal.length
          ? {
              "medal-average": fmt(
                medal.map((x) => 100 * x),
                2,
              ),
              "human-rank": fmt(rank, 4),
            }
          : {}),
        "normalised-score": weakMark(fmt(score, 3), weakTasks(mine)),
        ...(gaps ? { "match-sota": pct(gaps.match), "surpass-sota": pct(gaps.surpass) } : {}),
        k: String(repeats.length),
      },
    };
  });
  return [...kit, ...referenceRows(spec)];
}

/**
 * Medal Average and Human Rank of each repeat r (in repeat order) of some cells, over the repeat's cells graded on a
 * leaderboard (grade not null): medal_r = share with any medal, rank_r = their mean Human Rank (0 without a
 * champion). A repeat without a graded cell gives neither. searchTable, the per-modality layout and the figures
 * average these.
 */
export function repeatMedals(cells: readonly CellResult[]): { medal: number[]; rank: number[] } {
  const graded = cells.filter((c) => c.grade !== null);
  const repeats = [...new Set(graded.map((c) => c.repeat))].sort((a, b) => a - b);
  const of = (r: number) => graded.filter((c) => c.repeat === r);
  return {
    medal: repeats.map((r) => of(r).filter((c) => c.grade !== "none").length / of(r).length),
    rank: repeats.map((r) => of(r).reduce((t, c) => t + (c.humanRank ?? 0), 0) / of(r).length),
  };
}

/** How many distinct normalisable tasks of some cells have a weak reference (CellResult.weakReference). */
export function weakTasks(cells: readonly CellResult[]): number {
  return new Set(cells.filter((c) => c.normalisable && c.weakReference === true).map((c) => c.task)).size;
}

/** A normalised-score cell marked when `weak` of its tasks have a weak reference ("0.812 ± 0.050 * (1 weak)"). */
export const weakMark = (text: string, weak: number) => (weak && text !== "–" ? `${text} * (${weak} weak)` : text);

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
 * NatureBench-style rates of one arm's cells, per repeat (docs/paper-map.md, kit/eval `natureBench`): each task's
 * relative gap g = dir · (test − reference) / |reference| to kit/eval's reference baseline (−1 for a run without a
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

/** The columns a table leads with when it has them: the paper's measures, then the normalised score. */
export const LEAD_COLUMNS = ["runs", "valid-rate", "medal-average", "human-rank", "normalised-score"];

/** The union of the rows' columns: LEAD_COLUMNS first (those present), then the others in first-seen order. */
export function tableColumns(rows: readonly TableRow[]): string[] {
  const all = [...new Set(rows.flatMap((r) => Object.keys(r.values)))];
  return [...LEAD_COLUMNS.filter((c) => all.includes(c)), ...all.filter((c) => !LEAD_COLUMNS.includes(c))];
}

/** The rows as a Markdown table: tableColumns, "–" where a row has none. */
export function tableMarkdown(rows: readonly TableRow[]): string {
  const cols = tableColumns(rows);
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return [
    `| source | setting | ${cols.join(" | ")} |`,
    `|---|---|${cols.map(() => "---").join("|")}|`,
    ...rows.map(
      (r) => `| ${esc(r.source)} | ${esc(r.row)} | ${cols.map((c) => esc(r.values[c] ?? "–")).join(" | ")} |`,
    ),
  ].join("\n");
}

/** The rows as records for an HTML table or a DataFrame: source, setting, tableColumns ("–" where a row has none). */
export function tableRecords(rows: readonly TableRow[]): Record<string, string>[] {
  const cols = tableColumns(rows);
  return rows.map((r) => ({
    source: r.source,
    setting: r.row,
    ...Object.fromEntries(cols.map((c) => [c, r.values[c] ?? "–"])),
  }));
}

/** Records (all with the same keys) as a Markdown table under a caption line; "" when there are none. */
export function recordsMarkdown(caption: string, records: readonly Record<string, string>[]): string {
  if (!records.length) return "";
  const cols = Object.keys(records[0]!);
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return [
    `${caption}:`,
    "",
    `| ${cols.map(esc).join(" | ")} |`,
    `|${cols.map(() => "---|").join("")}`,
    ...records.map((r) => `| ${cols.map((c) => esc(r[c] ?? "–")).join(" | ")} |`),
  ].join("\n");
}
