/** 1-based leaderboard positions whose scores are the gold/silver/bronze thresholds. */
export interface MedalPositions {
  readonly gold: number;
  readonly silver: number;
  readonly bronze: number;
}

/**
 * MLE-bench's medal positions for a leaderboard of `teams` teams (MLE-bench's medal table; docs/paper-map.md:
 * Evaluation rules):
 *   N < 100      gold max(1,⌊0.1N⌋)     silver max(1,⌊0.2N⌋)  bronze max(1,⌊0.4N⌋)
 *   100–249      gold 10                silver ⌊0.2N⌋         bronze ⌊0.4N⌋
 *   250–999      gold 10+⌊0.002N⌋       silver 50             bronze 100
 *   N >= 1000    gold 10+⌊0.002N⌋       silver ⌊0.05N⌋        bronze ⌊0.1N⌋
 */
export function medalPositions(teams: number): MedalPositions {
  if (!Number.isInteger(teams) || teams < 1)
    throw new RangeError(`medalPositions: teams must be a positive integer, got ${teams}`);
  const f = Math.floor;
  if (teams < 100)
    return {
      gold: Math.max(1, f(0.1 * teams)),
      silver: Math.max(1, f(0.2 * teams)),
      bronze: Math.max(1, f(0.4 * teams)),
    };
  if (teams < 250) return { gold: 10, silver: f(0.2 * teams), bronze: f(0.4 * teams) };
  if (teams < 1000) return { gold: 10 + f(0.002 * teams), silver: 50, bronze: 100 };
  return { gold: 10 + f(0.002 * teams), silver: f(0.05 * teams), bronze: f(0.1 * teams) };
}
