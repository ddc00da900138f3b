import { describe, expect, it } from "vitest";
import { parseLeaderboardCsv } from "./leaderboard.js";

describe("parseLeaderboardCsv (d3-dsv)", () => {
  it("reads quoted fields holding commas, quotes and newlines, a BOM and blank lines", () => {
    const csv = '\uFEFFteamId,teamName,score\n1,"Smith, Jones",0.9\n\n2,"say ""hi""\nteam",0.8\n3,plain,0.7\n';
    expect(parseLeaderboardCsv(csv)).toEqual({ source: "<csv>", scores: [0.9, 0.8, 0.7], teamIds: ["1", "2", "3"] });
  });
  it("keeps its clear errors", () => {
    expect(() => parseLeaderboardCsv("teamId,points\n1,2\n2,3\n", "lb.csv")).toThrow(/no 'score' column/);
    expect(() => parseLeaderboardCsv("score\n1\nx\n", "lb.csv")).toThrow(/row 3 has score "x"/);
  });
});
