// The report's evaluation tables: groups (avg@k), tasks, search efficiency per run and per operator.
import type { MeanStd, searchEfficiency, evaluateRuns } from "../eval/index.js";
import { formatNumber } from "./format.js";
import { htmlTable } from "./html-table.js";

const ms = (m: MeanStd) => (m.n ? `${formatNumber(m.mean, 3)} ± ${formatNumber(m.std, 3)} (n=${m.n})` : null);

/** The tables as HTML, each with the reason a column is empty where it is. */
export function evaluationTables(
  evaluation: ReturnType<typeof evaluateRuns>,
  efficiency: ReturnType<typeof searchEfficiency>,
): string[] {
  const groupRows = evaluation.groups.map((g) => ({
    group: g.group,
    harness: g.harness,
    policy: g.policy,
    tasks: g.tasks,
    k: g.k,
    "submission valid rate": ms(g.valid_rate),
    "medal average": ms(g.medal_average),
    "human rank": ms(g.human_rank),
    normalised: ms(g.normalized),
    gold: g.grades.gold,
    silver: g.grades.silver,
    bronze: g.grades.bronze,
    "no medal": g.grades.none,
    invalid: g.grades.invalid,
    ungraded: g.grades.ungraded,
  }));
  const missing = {
    "medal average": "no task with an MLE-bench leaderboard",
    "human rank": "no task with an MLE-bench leaderboard",
    normalised: "no baselines given (--baselines)",
    medal_rate: "no leaderboard",
    human_rank: "no leaderboard",
    normalized: "no baselines given",
  };
  return [
    htmlTable(groupRows, {
      caption: "Evaluation by group (harness + policy + settings), avg@k over runs: mean ± std",
      reasons: missing,
    }),
    htmlTable(
      evaluation.tasks.map((t) => ({ ...t })),
      { caption: "Per task", maxRows: 200, reasons: missing },
    ),
    htmlTable(
      efficiency.runs.map((r) => ({ ...r })),
      { caption: "Search efficiency per run", maxRows: 200, reasons: { best: "no scored node" } },
    ),
    htmlTable(
      efficiency.operators.map((o) => ({ ...o })),
      {
        caption: "Per operator: prompt-size percentiles (characters), tokens, share of validation gain",
        reasons: {
          prompt_chars_p50: "no LLM calls (grammar policy)",
          prompt_chars_p90: "no LLM calls (grammar policy)",
          prompt_chars_p99: "no LLM calls (grammar policy)",
        },
      },
    ),
  ];
}
