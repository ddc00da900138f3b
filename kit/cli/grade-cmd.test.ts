import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";

type Result = { code: number; out: string; err: string };
// The real CLI from source (tsx), so no build is needed. All calls start together in beforeAll:
// each tsx start-up costs seconds on a busy 2-core machine.
const cli = (...args: string[]) =>
  new Promise<Result>((done) => {
    execFile(process.execPath, ["--import", "tsx", "kit/cli/main.ts", ...args], { cwd: join(import.meta.dirname, "..", "..") }, (e, out, err) =>
      done({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }));
  });

const dir = mkdtempSync(join(tmpdir(), "cli-grade-"));
writeFileSync(join(dir, "lower.csv"), "teamId,score\n1,-3\n2,-2\n3,-1\n4,0\n");
writeFileSync(join(dir, "nocol.csv"), "teamId,points\n1,2\n2,3\n");
writeFileSync(join(dir, "onerow.csv"), "teamId,score\n1,2\n");
const CASES = {
  json: ["grade", "--competition", "detecting-insults-in-social-commentary", "--score", "0.83321", "--json"],
  text: ["grade", "--leaderboard", join(dir, "lower.csv"), "--score", "-3.5"],
  unknown: ["grade", "--competition", "nope", "--score", "1"],
  nonNumeric: ["grade", "--competition", "mlsp-2013-birds", "--score", "abc"],
  nan: ["grade", "--competition", "mlsp-2013-birds", "--score", "NaN"],
  noColumn: ["grade", "--leaderboard", join(dir, "nocol.csv"), "--score", "1"],
  oneRow: ["grade", "--leaderboard", join(dir, "onerow.csv"), "--score", "1"],
} as const;
const results: Partial<Record<keyof typeof CASES, Result>> = {};
beforeAll(async () => {
  await Promise.all(Object.entries(CASES).map(async ([k, args]) => (results[k as keyof typeof CASES] = await cli(...args))));
});

describe("openmle grade", () => {
  test("--competition with --json gives MLE-bench's report fields", () => {
    const r = results.json!;
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual([
      "competition_id", "score", "gold_threshold", "silver_threshold", "bronze_threshold", "median_threshold", "any_medal", "gold_medal",
      "silver_medal", "bronze_medal", "above_median", "submission_exists", "valid_submission", "is_lower_better", "human_rank",
    ]);
    expect(j).toMatchObject({ gold_medal: true, gold_threshold: 0.83321, is_lower_better: false });
  });
  test("--leaderboard with a negative score (lower is better), human text", () => {
    expect(results.text!.code).toBe(0);
    expect(results.text!.out).toMatch(/-3\.5 → gold.*\n.*lower is better/);
  });
  test.each([
    ["unknown", /unknown competition "nope".*spooky-author-identification/],
    ["nonNumeric", /score "abc" is not a finite number/],
    ["nan", /score "NaN" is not a finite number/],
    ["noColumn", /no 'score' column/],
    ["oneRow", /has 1 row\(s\); grading needs at least 2/],
  ] as const)("bad input (%s) exits 1 with one clear line", (k, msg) => {
    const r = results[k]!;
    expect(r.code).toBe(1);
    expect(r.err).toMatch(msg);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
});
