import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, test } from "vitest";
import { registerGrade } from "./grade-cmd.js";
import { UsageError } from "./run-cli.js";

/** Run `openmle grade ...` in this process: its stdout, or the error runCli would print (one line, exit 1). */
async function grade(...args: string[]): Promise<{ out: string; error: string | null }> {
  const program = new Command().name("openmle").exitOverride();
  registerGrade(program);
  let out = "";
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  try {
    await program.parseAsync(["node", "openmle", "grade", ...args]);
    return { out, error: null };
  } catch (e) {
    const known = e instanceof UsageError || (e as { userFacing?: boolean }).userFacing === true;
    if (!known) throw e;
    return { out, error: (e as Error).message };
  } finally {
    process.stdout.write = write;
  }
}

const dir = mkdtempSync(join(tmpdir(), "cli-grade-"));
writeFileSync(join(dir, "lower.csv"), "teamId,score\n1,-3\n2,-2\n3,-1\n4,0\n");
writeFileSync(join(dir, "nocol.csv"), "teamId,points\n1,2\n2,3\n");
writeFileSync(join(dir, "onerow.csv"), "teamId,score\n1,2\n");

describe("openmle grade", () => {
  test("--competition with --json gives MLE-bench's report fields", async () => {
    const r = await grade("--competition", "detecting-insults-in-social-commentary", "--score", "0.83321", "--json");
    const j = JSON.parse(r.out) as Record<string, unknown>;
    expect(Object.keys(j)).toEqual([
      "competition_id", "score", "gold_threshold", "silver_threshold", "bronze_threshold", "median_threshold", "any_medal", "gold_medal",
      "silver_medal", "bronze_medal", "above_median", "submission_exists", "valid_submission", "is_lower_better", "human_rank",
    ]);
    expect(j).toMatchObject({ gold_medal: true, gold_threshold: 0.83321, is_lower_better: false });
  });
  test("--leaderboard with a negative score (lower is better), human text", async () => {
    expect((await grade("--leaderboard", join(dir, "lower.csv"), "--score", "-3.5")).out).toMatch(/-3\.5 → gold.*\n.*lower is better/);
  });
  test.each([
    [["--competition", "nope", "--score", "1"], /unknown competition "nope".*spooky-author-identification/],
    [["--competition", "mlsp-2013-birds", "--score", "abc"], /score "abc" is not a finite number/],
    [["--competition", "mlsp-2013-birds", "--score", "NaN"], /score "NaN" is not a finite number/],
    [["--score", "1"], /exactly one of --competition/],
    [["--competition", "mlsp-2013-birds"], /--score <x> is required/],
    [["--leaderboard", join(dir, "nocol.csv"), "--score", "1"], /no 'score' column/],
    [["--leaderboard", join(dir, "onerow.csv"), "--score", "1"], /has 1 row\(s\); grading needs at least 2/],
    [["--leaderboard", join(dir, "missing.csv"), "--score", "1"], /missing.csv: does not exist/],
  ])("bad input %j → a clear error", async (args, msg) => {
    const r = await grade(...args);
    expect(r.error).toMatch(msg);
    expect(r.out).toBe("");
  });

  // One real process: the error is one line on stderr and the exit code is 1.
  test("a real process exits 1 with one line on stderr", async () => {
    const code = 'import { Command } from "commander"; import { registerGrade } from "./kit/cli/grade-cmd.ts"; import { runCli } from "./kit/cli/run-cli.ts";' +
      'const p = new Command().name("openmle"); registerGrade(p); await runCli(p, ["node", "openmle", ...process.argv.slice(1)]);';
    const r = await new Promise<{ code: number; err: string }>((done) =>
      execFile(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code, "grade", "--competition", "nope", "--score", "1"],
        { cwd: join(import.meta.dirname, "..", "..") }, (e, _out, err) => done({ code: e ? Number((e as { code?: number }).code) : 0, err })));
    expect(r.code).toBe(1);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/^openmle: unknown competition "nope"/);
  });
});
