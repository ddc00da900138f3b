// %% [markdown]
// # 05 · Evaluate: MLE-bench grading, evaluate() over a workspace, figures
// This notebook grades scores against the 22 bundled **MLE-bench Lite** leaderboards with MLE-bench's
// rules (docs/paper-map.md: Evaluation rules), then evaluates the runs of a workspace (Valid Rate, Medal Average,
// Human Rank as avg@k mean ± std, grade distribution, per-modality rates, a normalised score for tasks without a
// leaderboard), computes search-efficiency statistics and draws the report's figures.
//
// The scores graded in the first part are **example scores** chosen at and around each leaderboard's
// thresholds to show the rules; they are not results of any agent.
// %%
import * as tslab from "tslab";
import {
  openWorkspace, evaluation, report, notebookFigure, htmlTable, gradeScore, summarizeGrades, liteCompetitionIds,
  loadLiteLeaderboard, medalPositions, evaluate, natureBench,
} from "openmle";

const ids = liteCompetitionIds();
const lbRows = ids.map((id) => {
  const lb = loadLiteLeaderboard(id);
  const pos = medalPositions(lb.scores.length);
  const r = gradeScore(lb, null);
  return {
    competition: id, teams: lb.scores.length, lower_is_better: r.is_lower_better,
    gold_pos: pos.gold, silver_pos: pos.silver, bronze_pos: pos.bronze,
    gold: r.gold_threshold, silver: r.silver_threshold, bronze: r.bronze_threshold, median: r.median_threshold,
  };
});
tslab.display.html(htmlTable(lbRows, { caption: `The ${ids.length} MLE-bench Lite leaderboards: medal positions and thresholds` }));
// %% [markdown]
// ## Grading rules at the edges
// A score earns a medal if it is **at least as good** as the leaderboard score at the medal position;
// `above_median` is **strict**. Human Rank is the share of leaderboard entries the score surpasses:
// `beaten / entries`, a tied entry not counting as surpassed. Below, for three competitions: a score exactly at the bronze threshold,
// one a hair worse, and one exactly at the median.
// %%
const examples = ["detecting-insults-in-social-commentary", "denoising-dirty-documents", "spooky-author-identification"].flatMap((id) => {
  const lb = loadLiteLeaderboard(id);
  const base = gradeScore(lb, null);
  const worse = (t: number) => t + (base.is_lower_better ? 1 : -1) * Math.max(Math.abs(t) * 1e-9, 1e-12);
  return [
    ["at bronze threshold", base.bronze_threshold],
    ["just worse than bronze", worse(base.bronze_threshold)],
    ["at median", base.median_threshold],
  ].map(([what, s]) => ({ what, ...gradeScore(lb, s as number, { competitionId: id }) }));
});
tslab.display.html(htmlTable(examples.map((r) => ({
  competition: r.competition_id, example: r.what, score: r.score, gold: r.gold_medal, silver: r.silver_medal, bronze: r.bronze_medal,
  any_medal: r.any_medal, above_median: r.above_median, human_rank: r.human_rank,
}))));
// %% [markdown]
// Ties: on `aerial-cactus-identification` many teams scored a perfect 1.0, so the gold, silver and bronze
// thresholds are all 1.0 — a perfect score is gold but beats only the teams below it, and ties with the rest.
// %%
const cactus = loadLiteLeaderboard("aerial-cactus-identification");
const perfect = gradeScore(cactus, 1);
console.log(`teams ${cactus.scores.length}, at 1.0: ${cactus.scores.filter((s) => s === 1).length}; gold ${perfect.gold_medal}, human rank ${perfect.human_rank!.toFixed(4)}`);
console.log(`0.99995 → any medal: ${gradeScore(cactus, 0.99995).any_medal}`);
// %% [markdown]
// `summarizeGrades` gives MLE-bench's multi-competition summary (plus Valid Rate, Medal Average and mean Human Rank)
// of the example grades above:
// %%
const { competition_reports, ...summary } = summarizeGrades(examples);
console.log(summary, `${competition_reports.length} reports`);
// %% [markdown]
// ## evaluate() over a workspace
// Point `OPENMLE_WORKSPACE` at a workspace with `evolve` runs to evaluate them. Without it, this notebook evaluates
// search runs the kit recorded (`data/recorded-runs/dev-search`, PROVENANCE.md): 18 OpenMLE-Evo runs of 8 steps on
// the first three tabular tasks of the corpus' development suite, the grammar policy with `uniform` against `default`
// parameters, seeds 1–3. These tasks have leaderboards, the kit's reference zoo of 25 standard pipelines scored on
// each task's hidden test (`openmle leaderboards build`), so every run gets a grade, and the groups a Medal Average
// and a Human Rank: on the kit's construction, not on Kaggle's teams. (The toy search this section used before
// ended every run at its reference, so grades could not differ.)
// %%
const ws = process.env.OPENMLE_WORKSPACE ? await openWorkspace(process.env.OPENMLE_WORKSPACE, { readOnly: true }) : await report.openRecordedRuns("dev-search");
const ev = await evaluate(ws);
const fmt = (m: { mean: number; std: number; n: number }) => (m.n ? `${m.mean.toFixed(3)} ± ${m.std.toFixed(3)}` : "—");
tslab.display.html(htmlTable(ev.groups.map((g) => ({
  group: g.group, tasks: g.tasks, k: g.k, valid_rate: fmt(g.valid_rate), medal_average: fmt(g.medal_average),
  human_rank: fmt(g.human_rank), grades: g.grades,
})), { caption: "kit (measured) on this workspace: avg@k over independent runs" }));
const byTask = [...ev.runs].sort((a, b) => a.task_id.localeCompare(b.task_id) || a.policy.localeCompare(b.policy) || (a.seed ?? 0) - (b.seed ?? 0));
tslab.display.html(htmlTable(byTask.map((r) => ({ run: r.run_id, task: r.task_id, policy: r.policy, seed: r.seed, "hidden test": r.score, grade: r.grade, "human rank": r.human_rank })),
  { caption: "Every run: its champion's hidden test score and grade on the task's leaderboard" }));
// %% [markdown]
// **What it says.** The grades spread over every level, 1 gold, 1 silver, 10 bronze and 6 runs without a medal, so
// the grading has room both ways. The two parameter sets reach the same Medal Average (0.667: 6 medals in 9 runs
// each), and `default` is a little ahead on Human Rank (0.678 against 0.659), well inside the seeds' spread (± 0.095
// and 0.104). Three tasks and three seeds cannot say which parameter set is better: the registered experiments
// answer that kind of question (notebook 09).
// %% [markdown]
// ## The recorded runs
// `evaluate()` over the kit's recorded runs (`data/recorded-runs/cars`, four harnesses × 40 nodes, see notebook 04 and
// `PROVENANCE.md`): one run per harness (k = 1); `cars` has no MLE-bench leaderboard, so the grade is "ungraded" and
// the hidden test RMSE is the result.
// %%
const recorded = await report.openRecordedRuns("cars");
const recEval = await evaluate(recorded);
tslab.display.html(htmlTable(recEval.runs.map((r) => ({ run: r.run_id, harness: r.harness, "hidden test RMSE": r.score, submission: r.submission_exists ? "valid" : "missing", grade: r.grade })), { caption: "Recorded runs on cars" }));
const recEff = await evaluation.loadSearchEfficiency(recorded);
tslab.display.html(htmlTable(recEff.runs.map((r) => ({ ...r })), { caption: "Search efficiency of the recorded runs" }));
recorded.close();
// %% [markdown]
// ## Search efficiency
// Nodes, tokens, new-record updates per 1,000 tokens per run; prompt-size percentiles and share of
// validation gain per operator. The grammar policy sends no prompt: its token counts are its context's size
// (characters), as `cards.prompt_chars` records them.
// %%
const searchRows = await evaluation.loadSearchRows(ws);
const eff = evaluation.searchEfficiency(searchRows.nodes, searchRows.calls, (id: string) => searchRows.higherIsBetter.get(id) ?? true);
tslab.display.html(htmlTable(eff.runs.map((r) => ({ ...r }))));
tslab.display.html(htmlTable(eff.operators.map((o) => ({ ...o }))));
// %% [markdown]
// ## Figures
// The same figures `openmle report` writes: metrics by group, grade distribution, per-modality rates, best
// score over time, operator contributions, prompt sizes and a search tree. (`openmle report` on one run also draws
// its parent-selection distribution and its validation → test view: notebook 04 shows them.)
// %%
const figs = report.reportFigures({ evaluation: ev, efficiency: eff, search: searchRows }, { maxTrees: 1 });
tslab.display.html(figs.map((f) => notebookFigure(f.figure, { height: 380 })).join(""));
// %% [markdown]
// ## NatureBench metrics
// Per instance `g = dir·(agent − SOTA)/|SOTA|` (failure = −1), averaged per task; Match-SOTA = share of
// tasks with `g ≥ 0`, Surpass-SOTA = share with `g > 0.1`. The instances below are **illustrative numbers**
// to show the arithmetic, not measurements.
// %%
const nb = natureBench([
  { task_id: "task-a", agent: 0.93, sota: 0.90, higher_is_better: true },
  { task_id: "task-a", agent: 0.91, sota: 0.90, higher_is_better: true },
  { task_id: "task-b", agent: 1.2, sota: 1.5, higher_is_better: false },
  { task_id: "task-c", agent: null, sota: 0.8, higher_is_better: true },
]);
tslab.display.html(htmlTable(nb.tasks.map((t) => ({ ...t }))));
console.log(`Match-SOTA ${nb.match_sota_rate}, Surpass-SOTA ${nb.surpass_sota_rate}`);
// %%
ws.close();
