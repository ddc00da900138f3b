import type { Command } from "commander";
import {
  gradeScore,
  liteCompetitionIds,
  loadLeaderboardFile,
  loadLiteLeaderboard,
  parseScore,
  type CompetitionReport,
} from "../eval/index.js";
import { formatScore } from "./format.js";
import { output, UsageError } from "./run-cli.js";

/** Human text for one grade. */
export function formatGrade(r: CompetitionReport): string {
  const medal = r.gold_medal ? "gold" : r.silver_medal ? "silver" : r.bronze_medal ? "bronze" : "no medal";
  const dir = r.is_lower_better ? "lower is better" : "higher is better";
  return [
    `${r.competition_id}: score ${formatScore(r.score)} → ${medal}` +
      `${r.above_median ? ", above median" : ", not above median"}`,
    `  thresholds (${dir}): gold ${r.gold_threshold}, silver ${r.silver_threshold}, bronze ` +
      `${r.bronze_threshold}, median ${r.median_threshold}`,
    `  human rank ${r.human_rank === null ? "—" : r.human_rank.toFixed(4)} (share of leaderboard ` +
      `teams strictly beaten; a tie is not a win)`,
  ].join("\n");
}

export function registerGrade(program: Command): void {
  program
    .command("grade")
    .description(
      "Grade a score against an MLE-bench Lite leaderboard (--competition) or any leaderboard CSV (--leaderboard)",
    )
    .option("--competition <id>", "an MLE-bench Lite competition id (see --list)")
    .option("--leaderboard <csv>", "a leaderboard CSV with a 'score' column, best team first")
    .option("--score <x>", "the score to grade")
    .option("--list", "list the bundled competition ids")
    .option("--json", "print the MLE-bench report JSON")
    .action((o: { competition?: string; leaderboard?: string; score?: string; list?: boolean; json?: boolean }) => {
      if (o.list) {
        const ids = liteCompetitionIds();
        output(!!o.json, ids, () => ids.join("\n"));
        return;
      }
      if (!!o.competition === !!o.leaderboard)
        throw new UsageError("grade: pass exactly one of --competition <id> or --leaderboard <csv>");
      if (o.score === undefined) throw new UsageError("grade: --score <x> is required");
      const score = parseScore(o.score);
      const lb = o.competition ? loadLiteLeaderboard(o.competition) : loadLeaderboardFile(o.leaderboard!);
      const report = gradeScore(lb, score, { submissionExists: true });
      output(!!o.json, report, () => formatGrade(report));
    });
}
