// The report's evaluation tables: groups (avg@k), tasks, search efficiency per run and per operator.
import type { MeanStd, searchEfficiency, evaluateRuns } from "../eval/index.js";
import { formatNumber } from "./format.js";
import { htmlTable } from "./html-table.js";

const ms = (m: MeanStd) => (m.n ? `${formatNumber(m.mean, 3)} ± ${formatNumber(m.std, 3)} (n=${m.n})` : null);

/** Where the leaderboard measures come from; the kit's corpus leaderboards are its own construction. */
/** Every evaluation of a workspace's own runs is exploratory: registered results are read through kit/experiment. */
export const EXPLORATORY_NOTE =
  "Exploratory: this workspace's own runs, not a registered experiment (registered results: openmle experiment " +
  "show ID; runs on sealed confirm tasks are left out)";

export const LEADERBOARD_NOTE =
  "Medal Average and Human Rank: MLE-bench Lite tasks on their Kaggle leaderboards, corpus tasks on the kit's " +
  "reference-zoo leaderboards (the kit's construction, not the paper's, which uses Kaggle's); a task without either " +
  "is ungraded";

/** What the normalised column is and what its weak-reference mark says (kit/eval normalizedScore, weakReference). */
export const NORMALISED_NOTE =
  "normalised = (score − trivial) / (reference − trivial), clipped to [−1, 2] (0 = trivial, 1 = the kit's reference " +
  "baseline), secondary to the leaderboard measures; * = a weak reference (it closes under 10 % of the way from the " +
  "trivial score to a perfect one, so its normalised score says little)";

/** The column of the normalised score, named with its clip. */
export const NORMALISED_COLUMN = "normalised (clipped to [−1, 2])";

/** The tables as HTML, each with the reason a column is empty where it is. */
export function evaluationTables(
  evaluation: ReturnType<typeof evaluateRuns>,
  efficiency: ReturnType<typeof searchEfficiency>,
): string[] {
  // Per group, its tasks with a normalised score whose reference is weak (marked *).
  const weak = (group: string) =>
    evaluation.tasks.filter((t) => t.group === group && t.normalized !== null && t.weak_reference).length;
  const mark = (v: string | null, n: number) => (v === null || !n ? v : `${v} * (${n} weak)`);
  // The paper's measures first (Valid Rate, Medal Average, Human Rank), then the normalised score.
  const groupRows = evaluation.groups.map((g) => ({
    group: g.group,
    harness: g.harness,
    policy: g.policy,
    tasks: g.tasks,
    k: g.k,
    "submission valid rate": ms(g.valid_rate),
    "medal average": ms(g.medal_average),
    "human rank": ms(g.human_rank),
    [NORMALISED_COLUMN]: mark(ms(g.normalized), weak(g.group)),
    gold: g.grades.gold,
    silver: g.grades.silver,
    bronze: g.grades.bronze,
    "no medal": g.grades.none,
    invalid: g.grades.invalid,
    ungraded: g.grades.ungraded,
  }));
  const taskRows = evaluation.tasks.map((t) => ({
    group: t.group,
    task: t.task_id,
    modality: t.modality,
    runs: t.runs,
    "valid rate": t.valid_rate,
    "medal rate": t.medal_rate,
    "human rank": t.human_rank,
    [NORMALISED_COLUMN]:
      t.normalized === null ? null : `${formatNumber(t.normalized, 3)}${t.weak_reference ? " *" : ""}`,
  }));
  const missing = {
    "medal average": "no task with a leaderboard (MLE-bench Lite or a kit corpus one)",
    "human rank": "no leaderboard (MLE-bench Lite or a kit corpus one)",
    "medal rate": "no leaderboard (MLE-bench Lite or a kit corpus one)",
    [NORMALISED_COLUMN]: "no baselines given (--baselines), or the reference does not beat the trivial baseline",
  };
  return [
    htmlTable(groupRows, {
      caption:
        "Evaluation by group (harness + policy + settings), avg@k over runs: mean ± std. " +
        `${EXPLORATORY_NOTE}. ${LEADERBOARD_NOTE}. ${NORMALISED_NOTE}.`,
      reasons: missing,
    }),
    htmlTable(taskRows, { caption: `Per task. ${NORMALISED_NOTE}.`, maxRows: 200, reasons: missing }),
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
