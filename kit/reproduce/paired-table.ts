// Every arm of a search experiment against its first arm on the hidden test, paired by task and repeat (kit/eval
// compareRuns, the rule of `openmle runs compare`): what the avg@k rows cannot say, whether an arm's champions beat
// the baseline's on the same task and seed, with a bootstrap interval.
import { compareRuns, type RunOutcome, type RunsComparison } from "../eval/index.js";
import { htmlTable } from "../report/index.js";
import type { ExperimentSpec, ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";
import { recordsMarkdown } from "./search-table.js";

/** One arm against the baseline arm. */
export interface PairedRow {
  /** `<arm label> − <baseline label>`. */
  readonly comparison: string;
  readonly result: RunsComparison;
}

/** A cell as the run outcome compareRuns pairs (task, seed = the repeat, hidden-test score). */
const outcome = (c: CellResult): RunOutcome => ({
  run_id: c.runId,
  task_id: c.task,
  harness: "",
  policy: c.arm,
  config_hash: "",
  seed: c.repeat,
  modality: c.modality,
  higher_is_better: c.higherIsBetter,
  score: c.testScore,
  submission_exists: c.testScore !== null,
});

/**
 * The preset's arms 2..n each against arm 1 (the baseline: a base model, or the first harness), by compareRuns:
 * d = s·(a − b) per (task, repeat); on several tasks made relative to the baseline's score and averaged per task,
 * the interval (95 %, 10,000 resamples, seed 1) over tasks. An experiment with one arm, or no search cells, has none.
 */
export function pairedRows(spec: ExperimentSpec, preset: ReproducePreset, cells: readonly CellResult[]): PairedRow[] {
  const arms = spec.presets[preset]?.arms ?? [];
  const base = arms[0];
  if (!base || spec.kind !== "search") return [];
  const of = (arm: string) => cells.filter((c) => c.arm === arm).map(outcome);
  return arms.slice(1).map((a) => ({
    comparison: `${a.label} − ${base.label}`,
    result: compareRuns(of(a.id), of(base.id)),
  }));
}

const signed = (x: number, pct: boolean) =>
  `${x > 0 ? "+" : x < 0 ? "−" : ""}${pct ? `${(100 * Math.abs(x)).toFixed(1)} %` : Math.abs(x).toPrecision(3)}`;

/** A row's interval in words: `+3.1 % [−0.4 %, +6.5 %] (relative, 4 tasks)`, or why there is none. */
export function pairedText(r: RunsComparison): string {
  const iv = r.interval;
  if (!iv || !r.pairs.length) return "no pairs with both arms valid";
  const pct = r.scale === "relative";
  return (
    `${signed(iv.mean, pct)} [${signed(iv.lo, pct)}, ${signed(iv.hi, pct)}] ` +
    `(${pct ? `relative to the baseline, ${r.tasks} tasks` : "metric units, 1 task"})`
  );
}

const PAIRED_CAPTION =
  "Paired on the hidden test: each arm against the first, same task and repeat; > 0: the arm's champions scored " +
  "better; 95 % bootstrap";

/** The rows as records, one per comparison, columns in reading order. */
export function pairedRecords(rows: readonly PairedRow[]): Record<string, string>[] {
  return rows.map((p) => ({
    comparison: p.comparison,
    "mean difference [95 %]": pairedText(p.result),
    "wins / losses / ties": `${p.result.wins} / ${p.result.losses} / ${p.result.ties}`,
    pairs: String(p.result.pairs.length),
    "pairs with a failed side": String(p.result.failed.a + p.result.failed.b),
  }));
}

/** The rows as a Markdown table under its caption (empty string when there are none). */
export function pairedMarkdown(rows: readonly PairedRow[]): string {
  return recordsMarkdown(PAIRED_CAPTION, pairedRecords(rows));
}

/** The rows as an HTML table (kit/report htmlTable), for table.html. */
export function pairedHtml(rows: readonly PairedRow[]): string {
  return htmlTable(pairedRecords(rows), { caption: PAIRED_CAPTION });
}
