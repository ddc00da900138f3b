import type { CompetitionReport } from "./grade-score.js";

/** A multi-competition grade: MLE-bench's summary counts plus the paper's rates. */
export interface GradeSummary {
  readonly total_runs: number;
  readonly total_runs_with_submissions: number;
  readonly total_valid_submissions: number;
  readonly total_medals: number;
  readonly total_gold_medals: number;
  readonly total_silver_medals: number;
  readonly total_bronze_medals: number;
  readonly total_above_median: number;
  /** total_valid_submissions / total_runs. */
  readonly valid_rate: number;
  /** total_medals / total_runs (the paper's Medal Average for one run per task). */
  readonly medal_average: number;
  /** Mean human_rank, a missing score counting 0 (it beats no team). */
  readonly human_rank: number;
  readonly competition_reports: readonly CompetitionReport[];
}

/** Aggregate per-competition reports (one per task and run). Empty input gives zero rates. */
export function summarizeGrades(reports: readonly CompetitionReport[]): GradeSummary {
  const n = reports.length;
  const count = (f: (r: CompetitionReport) => boolean) => reports.filter(f).length;
  const total_medals = count((r) => r.any_medal);
  const total_valid_submissions = count((r) => r.valid_submission);
  return {
    total_runs: n,
    total_runs_with_submissions: count((r) => r.submission_exists),
    total_valid_submissions,
    total_medals,
    total_gold_medals: count((r) => r.gold_medal),
    total_silver_medals: count((r) => r.silver_medal),
    total_bronze_medals: count((r) => r.bronze_medal),
    total_above_median: count((r) => r.above_median),
    valid_rate: n ? total_valid_submissions / n : 0,
    medal_average: n ? total_medals / n : 0,
    human_rank: n ? reports.reduce((a, r) => a + (r.human_rank ?? 0), 0) / n : 0,
    competition_reports: reports,
  };
}
