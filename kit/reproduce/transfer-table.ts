// Does a search experiment's arm keep on the hidden test what its search gained on validation? Per arm, counted over
// its runs (kit/eval validationTransfer, the view of `openmle runs stats` and notebook 04): the champion's gain over
// the run's own best draft on validation, whether that gain held on the hidden test, and whether the champion was
// the run's best node on the hidden test. Counts, not means, so tasks of different metrics add up.
import type { ValidationTransfer } from "../eval/index.js";
import type { ExperimentSpec, ReproducePreset } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";
import { recordsMarkdown } from "./search-table.js";
import { htmlTable } from "../report/index.js";

/** One arm's runs. */
export interface TransferRow {
  readonly arm: string;
  readonly runs: number;
  /** Runs whose champion beat their best draft on validation (validGain > 0). */
  readonly validGain: number;
  /** Of those, runs where the gain held on the hidden test (testGain > 0). */
  readonly held: number;
  /** Of those, runs where it reversed (testGain < 0). */
  readonly reversed: number;
  /** Runs whose champion was also their best node on the hidden test (regret 0). */
  readonly championBestOnTest: number;
}

/** The rows, one per arm of the preset in its order; `transfer` maps a cell's run id to its run's view. */
export function transferRows(
  spec: ExperimentSpec,
  preset: ReproducePreset,
  cells: readonly CellResult[],
  transfer: ReadonlyMap<string, ValidationTransfer>,
): TransferRow[] {
  if (spec.kind !== "search") return [];
  return (spec.presets[preset]?.arms ?? []).map((a) => {
    const views = cells.filter((c) => c.arm === a.id).flatMap((c) => transfer.get(c.runId) ?? []);
    const gained = views.filter((v) => (v.champion_vs_draft.validGain ?? 0) > 0);
    return {
      arm: a.label,
      runs: views.length,
      validGain: gained.length,
      held: gained.filter((v) => (v.champion_vs_draft.testGain ?? 0) > 0).length,
      reversed: gained.filter((v) => (v.champion_vs_draft.testGain ?? 0) < 0).length,
      championBestOnTest: views.filter((v) => v.regret === 0).length,
    };
  });
}

const CAPTION =
  "Validation → hidden test per arm (each run's champion against its own best draft; kit/eval validationTransfer)";

/** The rows as records for a table. */
export function transferRecords(rows: readonly TransferRow[]): Record<string, string>[] {
  return rows.map((r) => ({
    arm: r.arm,
    runs: String(r.runs),
    "champion beat its best draft on validation": `${r.validGain} of ${r.runs}`,
    "… and on the hidden test": `${r.held} of ${r.validGain}`,
    "… reversed on the hidden test": `${r.reversed} of ${r.validGain}`,
    "champion was the best node on the hidden test": `${r.championBestOnTest} of ${r.runs}`,
  }));
}

/** The rows as a Markdown table under its caption (empty string when there are none). */
export function transferMarkdown(rows: readonly TransferRow[]): string {
  return recordsMarkdown(CAPTION, transferRecords(rows));
}

/** The rows as an HTML table (kit/report htmlTable), for table.html. */
export function transferHtml(rows: readonly TransferRow[]): string {
  return htmlTable(transferRecords(rows), { caption: CAPTION });
}
