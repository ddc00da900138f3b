/**
 * Human Rank: the share of leaderboard teams a score beats, in [0, 1].
 *
 * Ties count half (the mid-rank convention): with B teams strictly worse than the score,
 * T teams with exactly the same score and N teams in all,
 *     humanRank = (B + T/2) / N.
 * So a score equal to every team's gets 0.5, a score better than all gets 1, worse than all 0.
 * "Worse" follows the direction: for lower-is-better leaderboards a larger score is worse.
 * Exact equality only (no tolerance): leaderboard scores are compared as parsed numbers.
 */
export function humanRank(score: number, leaderboardScores: readonly number[], lowerIsBetter: boolean): number {
  const n = leaderboardScores.length;
  if (n === 0) throw new RangeError("humanRank: the leaderboard has no scores");
  let beaten = 0;
  let tied = 0;
  for (const s of leaderboardScores) {
    if (s === score) tied++;
    else if (lowerIsBetter ? score < s : score > s) beaten++;
  }
  return (beaten + tied / 2) / n;
}
