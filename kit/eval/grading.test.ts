import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  gradeScore, humanRank, InvalidScoreError, isLowerBetter, LeaderboardFormatError, liteCompetitionIds, loadLeaderboardFile,
  loadLiteLeaderboard, medalPositions, median, parseLeaderboardCsv, parseScore, summarizeGrades, UnknownCompetitionError,
} from "./index.js";

describe("medalPositions (MLE-bench's medal table, hand-computed)", () => {
  test.each([
    // N, gold, silver, bronze
    [1, 1, 1, 1],
    [5, 1, 1, 2],
    [9, 1, 1, 3],
    [10, 1, 2, 4],
    [50, 5, 10, 20],
    [81, 8, 16, 32],
    [99, 9, 19, 39],
    [100, 10, 20, 40],
    [162, 10, 32, 64],
    [249, 10, 49, 99],
    [250, 10, 50, 100],
    [462, 10, 50, 100],
    [500, 11, 50, 100],
    [999, 11, 50, 100],
    [1000, 12, 50, 100],
    [1221, 12, 61, 122],
    [4539, 19, 226, 453],
  ])("N=%i → gold %i, silver %i, bronze %i", (n, gold, silver, bronze) => {
    expect(medalPositions(n)).toEqual({ gold, silver, bronze });
  });
  test("rejects a non-positive team count", () => expect(() => medalPositions(0)).toThrow(/positive integer/));
});

describe("humanRank: share of entries surpassed; a tie is not surpassed", () => {
  test.each([
    // score, leaderboard, lowerIsBetter, expected B/N (B = entries strictly worse)
    [5, [9, 7, 5, 3, 1], false, 2 / 5],
    [6, [9, 7, 5, 3, 1], false, 3 / 5],
    [10, [9, 7, 5, 3, 1], false, 1],
    [0, [9, 7, 5, 3, 1], false, 0],
    [5, [1, 3, 5, 7, 9], true, 2 / 5],
    [1, [1, 1, 1, 2], true, 1 / 4],
    [4, [4, 4, 4, 4], false, 0],
    [1, [1, 1, 0.5, 0.2], false, 2 / 4],
    [0.9, [1, 0.9, 0.9, 0.9, 0.8, 0.8], false, 2 / 6], // three tied entries in the middle
  ])("score %d on %j (lower=%s) → %d", (score, lb, lower, expected) => {
    expect(humanRank(score, lb, lower)).toBeCloseTo(expected, 12);
  });
});

describe("median and direction", () => {
  test.each([
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[5, 5], 5],
  ])("median(%j) = %d", (xs, m) => expect(median(xs)).toBe(m));
  test.each([
    [[0.9, 0.5], false],
    [[0.1, 0.5], true],
    [[1, 1], false],
  ])("isLowerBetter(%j) = %s", (xs, lower) => expect(isLowerBetter(xs)).toBe(lower));
});

describe("gradeScore on hand-read Lite leaderboards", () => {
  // Thresholds read by hand from the CSVs (row = position): see medalPositions rows above.
  test.each([
    ["detecting-insults-in-social-commentary", false, 0.83321, 0.82307, 0.79111, 0.77842],
    ["mlsp-2013-birds", false, 0.93527, 0.90038, 0.87372, undefined],
    ["denoising-dirty-documents", true, 0.01794, 0.02609, 0.04517, undefined],
    ["random-acts-of-pizza", false, 0.97908, 0.76482, 0.6921, undefined],
    ["aerial-cactus-identification", false, 1, 1, 1, undefined],
  ] as const)("%s", (id, lower, gold, silver, bronze, med) => {
    const r = gradeScore(loadLiteLeaderboard(id), gold);
    expect(r.is_lower_better).toBe(lower);
    expect([r.gold_threshold, r.silver_threshold, r.bronze_threshold]).toEqual([gold, silver, bronze]);
    if (med !== undefined) expect(r.median_threshold).toBeCloseTo(med, 10);
    expect(r.gold_medal && r.any_medal && !r.silver_medal && !r.bronze_medal).toBe(true);
  });

  test("aerial cactus: 1.0 is gold and ties with the many perfect teams; 0.99995 has no medal", () => {
    const lb = loadLiteLeaderboard("aerial-cactus-identification");
    const perfect = lb.scores.filter((s) => s === 1).length;
    const worse = lb.scores.filter((s) => s < 1).length;
    const r = gradeScore(lb, 1);
    expect(r.gold_medal).toBe(true);
    expect(perfect).toBeGreaterThan(1);
    expect(r.human_rank).toBeCloseTo(worse / lb.scores.length, 12); // the tied perfect teams are not surpassed
    expect(gradeScore(lb, 0.99995).any_medal).toBe(false);
  });
});

/** A score just on the worse side of t (tiny relative step), per direction. */
const worseThan = (t: number, lower: boolean) => t + (lower ? 1 : -1) * Math.max(Math.abs(t) * 1e-9, 1e-12);
const betterThan = (t: number, lower: boolean) => worseThan(t, !lower);

describe("all 22 Lite leaderboards: at thresholds, just outside them, ties", () => {
  const ids = liteCompetitionIds();
  test("there are 22 bundled competitions", () => expect(ids).toHaveLength(22));

  test.each(ids)("%s", (id) => {
    const lb = loadLiteLeaderboard(id);
    const s = lb.scores;
    const lower = isLowerBetter(s);
    const pos = medalPositions(s.length);
    const r0 = gradeScore(lb, null);
    expect(r0).toMatchObject({ any_medal: false, valid_submission: false, submission_exists: false, human_rank: null, above_median: false });
    expect(r0.gold_threshold).toBe(s[pos.gold - 1]);
    expect(r0.silver_threshold).toBe(s[pos.silver - 1]);
    expect(r0.bronze_threshold).toBe(s[pos.bronze - 1]);
    const { gold_threshold: g, silver_threshold: sv, bronze_threshold: b, median_threshold: m } = r0;
    const atLeast = (x: number, t: number) => (lower ? x <= t : x >= t);

    // Exactly at each threshold: that medal (or a better one when thresholds tie).
    const atGold = gradeScore(lb, g);
    expect(atGold.gold_medal).toBe(true);
    const atSilver = gradeScore(lb, sv);
    expect(atSilver.silver_medal || (atSilver.gold_medal && atLeast(sv, g))).toBe(true);
    const atBronze = gradeScore(lb, b);
    expect(atBronze.bronze_medal || (atBronze.any_medal && atLeast(b, sv))).toBe(true);

    // Just worse than each threshold: not that medal; just worse than bronze: no medal at all.
    const offGold = gradeScore(lb, worseThan(g, lower));
    expect(offGold.gold_medal).toBe(false);
    expect(offGold.silver_medal).toBe(atLeast(worseThan(g, lower), sv));
    expect(gradeScore(lb, worseThan(sv, lower)).silver_medal).toBe(false);
    expect(gradeScore(lb, worseThan(sv, lower)).gold_medal).toBe(false);
    expect(gradeScore(lb, worseThan(b, lower)).any_medal).toBe(false);
    // Just better than the gold threshold is still gold; exactly one medal flag at most.
    expect(gradeScore(lb, betterThan(g, lower)).gold_medal).toBe(true);

    // above_median is strict.
    expect(gradeScore(lb, m).above_median).toBe(false);
    expect(gradeScore(lb, betterThan(m, lower)).above_median).toBe(true);
    expect(gradeScore(lb, worseThan(m, lower)).above_median).toBe(false);

    // Ties: a score equal to the first row's does not surpass it; better than all → 1.
    const top = s[0]!;
    const tiesTop = s.filter((x) => x === top).length;
    expect(gradeScore(lb, top).human_rank).toBeCloseTo((s.length - tiesTop) / s.length, 12);
    const best = lower ? Math.min(...s) : Math.max(...s);
    expect(gradeScore(lb, betterThan(best, lower)).human_rank).toBe(1);
    for (const x of [g, sv, b, m]) {
      const r = gradeScore(lb, x);
      expect([r.gold_medal, r.silver_medal, r.bronze_medal].filter(Boolean).length).toBeLessThanOrEqual(1);
    }
  });
});

describe("summarizeGrades", () => {
  test("counts and rates over hand-chosen scores", () => {
    const insults = loadLiteLeaderboard("detecting-insults-in-social-commentary");
    const reports = [
      gradeScore(insults, 0.84), // gold
      gradeScore(insults, 0.8), // bronze (0.79111 <= 0.8 < 0.82307), above median
      gradeScore(insults, 0.5), // nothing
      gradeScore(insults, null, { submissionExists: true }), // invalid
    ];
    const s = summarizeGrades(reports);
    expect(s).toMatchObject({
      total_runs: 4, total_runs_with_submissions: 4, total_valid_submissions: 3, total_medals: 2,
      total_gold_medals: 1, total_silver_medals: 0, total_bronze_medals: 1, total_above_median: 2, valid_rate: 0.75, medal_average: 0.5,
    });
    const hr = (reports[0]!.human_rank! + reports[1]!.human_rank! + reports[2]!.human_rank!) / 4;
    expect(s.human_rank).toBeCloseTo(hr, 12);
  });
});

describe("bad input", () => {
  test("unknown competition lists the valid ids", () => {
    expect(() => loadLiteLeaderboard("no-such-comp")).toThrow(UnknownCompetitionError);
    expect(() => loadLiteLeaderboard("no-such-comp")).toThrow(/spooky-author-identification/);
  });
  test.each(["abc", "NaN", "", "  ", "Infinity", undefined, null, Number.NaN])("score %j is rejected", (v) => {
    expect(() => parseScore(v)).toThrow(InvalidScoreError);
  });
  test.each([
    ["teamId,points\n1,0.5\n2,0.4\n", /no 'score' column/],
    ["score\n0.5\n", /1 row\(s\)/],
    ["score\n", /0 row\(s\)/],
    ["", /is empty/],
    ["teamId,score\n1,0.5\n2,oops\n", /row 3 has score "oops"/],
  ])("leaderboard %j → error", (csv, msg) => {
    expect(() => parseLeaderboardCsv(csv, "t.csv")).toThrow(LeaderboardFormatError);
    expect(() => parseLeaderboardCsv(csv, "t.csv")).toThrow(msg);
  });
  test("a missing file names the path", () => {
    expect(() => loadLeaderboardFile("/nonexistent/lb.csv")).toThrow(/nonexistent\/lb.csv/);
  });
  test("any leaderboard CSV grades (quoted cells, no teamId)", () => {
    const dir = mkdtempSync(join(tmpdir(), "lb-"));
    const f = join(dir, "lb.csv");
    writeFileSync(f, 'name,score\n"a, inc",10\nb,20\nc,30\nd,40\n');
    const r = gradeScore(loadLeaderboardFile(f), 10);
    expect(r.is_lower_better).toBe(true);
    expect(r.gold_medal).toBe(true);
    expect(r.median_threshold).toBe(25);
    expect(r.human_rank).toBeCloseTo(3 / 4, 12);
  });
});
