// A zoo run as an MLE-bench leaderboard (pure): the scores at a fixed precision, the entries best first.

/** Significant digits a leaderboard keeps of each score. */
export const SCORE_DIGITS = 10;

/**
 * A score as the leaderboard writes it: rounded to `digits` significant digits, then the shortest text that reads
 * back as that number (JavaScript's Number → String), e.g. 0.65942028985507245 → "0.6594202899", 12 → "12",
 * 1.23456789012e-7 → "1.23456789e-7". The same score always gives the same text.
 */
export function formatScore(score: number, digits = SCORE_DIGITS): string {
  if (!Number.isFinite(score)) throw new RangeError(`formatScore: ${score} is not a finite number`);
  return String(Number(score.toPrecision(digits)));
}

/** One leaderboard row: the zoo entry's name (teamId) and its score as written. */
export interface LeaderboardRow {
  readonly teamId: string;
  readonly score: string;
}

/**
 * The valid entries (a finite score) in MLE-bench's leaderboard order, best first:
 * 1. each score is rounded as formatScore writes it;
 * 2. rows sort by the rounded score, descending when higher is better, else ascending;
 * 3. ties keep a fixed order: by teamId (code-unit order).
 * Invalid entries (null or non-finite score) are left off.
 */
export function rankEntries(
  entries: readonly { readonly name: string; readonly score: number | null }[],
  higherIsBetter: boolean,
  digits = SCORE_DIGITS,
): LeaderboardRow[] {
  const dir = higherIsBetter ? -1 : 1;
  return entries
    .flatMap((e) =>
      e.score !== null && Number.isFinite(e.score) ? [{ name: e.name, text: formatScore(e.score, digits) }] : [],
    )
    .sort((a, b) => dir * (Number(a.text) - Number(b.text)) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((e) => ({ teamId: e.name, score: e.text }));
}

/** The leaderboard's CSV text: header `teamId,score`, one line per row, "\n" line ends, a final newline. */
export function leaderboardCsv(rows: readonly LeaderboardRow[]): string {
  for (const r of rows)
    if (!/^[A-Za-z0-9._-]+$/.test(r.teamId)) throw new RangeError(`leaderboardCsv: teamId ${JSON.stringify(r.teamId)}`);
  return `teamId,score\n${rows.map((r) => `${r.teamId},${r.score}\n`).join("")}`;
}
