import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { leaderboardHigherIsBetter, liteCompetitions, liteLeaderboardPath } from "./mlebench-import.js";

describe("bundled MLE-bench Lite leaderboards", () => {
  test("all 22 Lite competitions carry a leaderboard", () => {
    const ids = liteCompetitions();
    expect(ids).toHaveLength(22);
    for (const id of ids) expect(liteLeaderboardPath(id), id).toBeDefined();
    expect(liteLeaderboardPath("not-a-competition")).toBeUndefined();
  });

  test.each([
    ["spooky-author-identification", false], // multi-class log loss
    ["aerial-cactus-identification", true], // ROC-AUC
    ["new-york-city-taxi-fare-prediction", false], // RMSE
  ])("%s: higher is better = %s (MLE-bench's first-vs-last rule)", (id, expected) => {
    expect(leaderboardHigherIsBetter(readFileSync(liteLeaderboardPath(id)!, "utf8"))).toBe(expected);
  });

  test.each([
    ["score\n1\n2\n3\n", false],
    ["score\n3\n2\n1\n", true],
    ["a,score\nx,5\n", true],
  ])("rule on %j", (csv, expected) => {
    expect(leaderboardHigherIsBetter(csv)).toBe(expected);
  });
});
