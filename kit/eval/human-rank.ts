/**
 * Human Rank (paper): the share of leaderboard entries the score surpasses, in [0, 1].
 *
 * With B entries strictly worse than the score and N entries in all,
 *     humanRank = B / N.
 * Tie rule: an entry with exactly the same score is not surpassed, so it does not count (a tie is
 * not a win). A score equal to every entry's gets 0, a score better than all gets 1, worse than all 0.
 * "Worse" follows the direction: for lower-is-better leaderboards a larger score is worse.
 * Exact equality only (no tolerance): leaderboard scores are compared as parsed numbers.
 */
export function humanRank(score: number, leaderboardScores: readonly number[], lowerIsBetter: boolean): number {
  const n = leaderboardScores.length;
  if (n === 0) throw new RangeError("humanRank: the leaderboard has no scores");
  let surpassed = 0;
  for (const s of leaderboardScores) if (s !== score && (lowerIsBetter ? score < s : score > s)) surpassed++;
  return surpassed / n;
}
