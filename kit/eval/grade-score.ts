import { InvalidScoreError } from "./errors.js";
import { humanRank } from "./human-rank.js";
import type { Leaderboard } from "./leaderboard.js";
import { medalPositions } from "./medal-positions.js";
import { median } from "./median.js";

/** One competition's grade, with MLE-bench's per-competition report fields plus `human_rank`. */
export interface CompetitionReport {
  readonly competition_id: string;
  /** The graded score; null when there was no valid submission. */
  readonly score: number | null;
  readonly gold_threshold: number;
  readonly silver_threshold: number;
  readonly bronze_threshold: number;
  readonly median_threshold: number;
  readonly any_medal: boolean;
  readonly gold_medal: boolean;
  readonly silver_medal: boolean;
  readonly bronze_medal: boolean;
  readonly above_median: boolean;
  readonly submission_exists: boolean;
  readonly valid_submission: boolean;
  readonly is_lower_better: boolean;
  /** Share of leaderboard entries the score surpasses (a tie is not surpassed; see human-rank.ts); null without a
   * score. */
  readonly human_rank: number | null;
}

/** Medians per leaderboard score array (a leaderboard is graded many times; sorting it once is enough). */
const medians = new WeakMap<readonly number[], number>();
function cachedMedian(scores: readonly number[]): number {
  let m = medians.get(scores);
  if (m === undefined) medians.set(scores, (m = median(scores)));
  return m;
}

/** MLE-bench's direction rule: lower is better iff the first row's score < the last row's. */
export function isLowerBetter(scores: readonly number[]): boolean {
  return scores[0]! < scores[scores.length - 1]!;
}

/** Turn a CLI/JSON value into a finite score, or throw InvalidScoreError naming it. */
export function parseScore(value: unknown): number {
  const v = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(v)) throw new InvalidScoreError(value);
  return v;
}

export interface GradeOptions {
  /** Defaults to the leaderboard's source. */
  readonly competitionId?: string;
  /** Whether a submission file existed (defaults to score !== null). */
  readonly submissionExists?: boolean;
}

/**
 * Grade one score against a leaderboard, following MLE-bench:
 * 1. positions from the team count (medalPositions), thresholds = leaderboard score at those positions;
 * 2. a medal if the score is at least as good as the threshold (<= when lower is better, else >=);
 *    only the best medal is set (silver excludes gold, bronze excludes both);
 * 3. above_median is strict against the median of all leaderboard scores.
 * `score: null` (no valid submission) gets every flag false.
 */
export function gradeScore(leaderboard: Leaderboard, score: number | null, opts: GradeOptions = {}): CompetitionReport {
  if (score !== null && !Number.isFinite(score)) throw new InvalidScoreError(score);
  const scores = leaderboard.scores;
  const lower = isLowerBetter(scores);
  const pos = medalPositions(scores.length);
  const at = (p: number) => scores[Math.min(p, scores.length) - 1]!;
  const gold_threshold = at(pos.gold);
  const silver_threshold = at(pos.silver);
  const bronze_threshold = at(pos.bronze);
  const median_threshold = cachedMedian(scores);
  const asGood = (t: number) => score !== null && (lower ? score <= t : score >= t);
  const gold_medal = asGood(gold_threshold);
  const silver_medal = !gold_medal && asGood(silver_threshold);
  const bronze_medal = !gold_medal && !silver_medal && asGood(bronze_threshold);
  return {
    competition_id: opts.competitionId ?? leaderboard.source,
    score,
    gold_threshold,
    silver_threshold,
    bronze_threshold,
    median_threshold,
    any_medal: gold_medal || silver_medal || bronze_medal,
    gold_medal,
    silver_medal,
    bronze_medal,
    above_median: score !== null && (lower ? score < median_threshold : score > median_threshold),
    submission_exists: opts.submissionExists ?? score !== null,
    valid_submission: score !== null,
    is_lower_better: lower,
    human_rank: score === null ? null : humanRank(score, scores, lower),
  };
}
