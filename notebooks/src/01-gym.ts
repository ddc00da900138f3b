// %% [markdown]
// # 01 · OpenMLE-Gym: task packages
// A **task package** is a folder in the paper's exact layout: `raw/`, `data/public/` (what a program sees:
// `description.txt`, `train.csv`, `test.csv`, `sample_submission.csv`), `data/private/test_answer.csv`
// (hidden), `utils/prepare.py` (a deterministic split) and `utils/metric.py` (one metric class, found by its
// methods). This notebook builds one from real data, looks at it with danfojs, scores submissions with the
// package's own metric, runs the quality checks (with their evidence), plants a leak to see a check fail,
// and charts the built-in suite against the paper's modality mix and task funnel, then the kit's own corpus
// funnel beside the paper's.
// %%
import * as tslab from "tslab";
import * as dfd from "danfojs-node";
import { existsSync, mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { corpusFunnelFigure, gym, htmlTable, notebookFigure, openWorkspace } from "openmle";

const dir = mkdtempSync(join(tmpdir(), "nb01-"));
const suite = gym.listBuiltinTasks();
tslab.display.html(htmlTable(suite.map(({ id, modality, taskType, metric, name }) => ({ id, modality, taskType, metric, name })), { caption: "The built-in suite (openmle task list)" }));
// %% [markdown]
// ## Build a built-in task
// `buildBuiltinTask` reads the raw records from the installed package (here vega-datasets' Palmer penguins),
// writes `prepare.py` (a stratified split with a fixed seed; the spec's fields are data in
// `utils/prepare_config.json` beside it, never code) and `metric.py` (accuracy, from the metric registry),
// runs prepare, and moves the finished folder into place.
// %%
const task = await gym.buildBuiltinTask("penguins", { outDir: join(dir, "penguins") });
console.log(`${task.meta.id}: ${task.meta.nTrain} train / ${task.meta.nTest} test rows; metric ${task.meta.metric}; predict ${task.meta.targetColumns}`);
console.log(task.description.split("\n").slice(0, 12).join("\n"));
// %% [markdown]
// ## A look at the data with danfojs
// %%
const train = await dfd.readCSV(join(task.publicDir, "train.csv"));
train.head().print();
train.dropNa({ axis: 1 }).describe().print(); // rows with missing values dropped (describe needs numbers)
train["species"].valueCounts().print();
// %% [markdown]
// ## Scoring with the package's own metric
// `scoreSubmission` runs `utils/metric.py` through `/usr/bin/python3`: `validate_submission`, then `evaluate`.
// A constant guess, a rule on one feature, and a malformed file.
// %%
const test = await dfd.readCSV(join(task.publicDir, "test.csv"));
const ids = test["id"].values as number[];
const flipper = test["flipper_length_mm"].values as number[];
const beak = test["beak_depth_mm"].values as number[];
const rule = ids.map((id, i) => `${id},${flipper[i]! > 206 ? "Gentoo" : beak[i]! > 18.3 ? "Adelie" : "Chinstrap"}`);
writeFileSync(join(dir, "rule.csv"), ["id,species", ...rule].join("\n") + "\n");
writeFileSync(join(dir, "broken.csv"), "id,kind\n1,x\n");
const scores = [];
for (const [name, file] of [["sample (majority class)", join(task.publicDir, "sample_submission.csv")], ["two-threshold rule", join(dir, "rule.csv")], ["malformed", join(dir, "broken.csv")]] as const) {
  scores.push({ submission: name, ...(await gym.scoreSubmission(task, file)) });
}
tslab.display.html(htmlTable(scores));
// %% [markdown]
// ## Quality checks, with evidence
// Metric verification (the answers score the best value, the sample validates, shuffled answers score worse,
// malformed files are rejected, a constant guess does not reach the best score) and the data checks (id
// overlap, duplicates across the split, target leakage, degenerate target, too little data, answers under
// `public/`, prepare determinism).
// %%
const report = await gym.checkTask(task);
console.log(`passed: ${report.passed}, metric valid: ${report.metricValid} (${report.durationMs} ms)`);
tslab.display.html(htmlTable(report.checks.map((c) => ({ check: c.name, status: c.status, message: c.message, evidence: c.evidence }))));
// %% [markdown]
// ## A planted leak is caught
// Add a column that recodes the species as a number and rebuild with `buildTask`: the leakage check names it.
// %%
const rows = readFileSync(join(task.dir, "raw", "table.csv"), "utf8").trim().split("\n");
const sp = rows[0]!.split(",").indexOf("species");
const code: Record<string, string> = { Adelie: "0", Chinstrap: "1", Gentoo: "2" };
writeFileSync(join(dir, "leaky.csv"), [rows[0] + ",species_code", ...rows.slice(1).map((r) => `${r},${code[r.split(",")[sp]!] ?? ""}`)].join("\n") + "\n");
const leaky = await gym.buildTask({ id: "penguins-leaky", table: join(dir, "leaky.csv"), target: "species", metric: "accuracy", split: { kind: "stratified" } }, { outDir: join(dir, "leaky") });
const leakReport = await gym.checkTask(leaky, { determinism: false });
tslab.display.html(htmlTable(leakReport.checks.filter((c) => c.status !== "pass").map((c) => ({ check: c.name, status: c.status, message: c.message, evidence: c.evidence }))));
// %% [markdown]
// ## The built-in suite against the paper
// The paper's mix over its 5,758 tasks (docs/paper-map.md: Corpus composition) next to the kit's built-in suite.
// %%
const paperMix: Record<string, number> = { tabular: 44, image: 18, time_series: 13, multimodal: 11, text: 9, audio: 2, video: 1, other: 2 };
const kinds = Object.keys(paperMix);
const ours = kinds.map((k) => (100 * suite.filter((t) => t.modality === k).length) / suite.length);
tslab.display.html(notebookFigure({
  data: [
    { type: "bar", name: "paper (5,758 tasks)", x: kinds, y: kinds.map((k) => paperMix[k]) },
    { type: "bar", name: `built-in suite (${suite.length} tasks)`, x: kinds, y: ours },
  ],
  layout: { title: { text: "Modality mix, % of tasks" }, barmode: "group", yaxis: { title: { text: "%" } } },
}));
// %% [markdown]
// The competition funnel of the paper's Fig. 3: ~11,000 Kaggle competitions → screened (leaderboard length,
// de-duplication against MLE-bench, licence and rules) → automatic build + metric verification → the
// semantic quality gate (accept only metric-valid AND recommended).
// %%
const funnel = [["Kaggle competitions", 11000], ["screened", 3972], ["built + metric-verified", 2839], ["passed the semantic gate", 2240]] as const;
tslab.display.html(notebookFigure({
  data: [{ type: "funnel", y: funnel.map((f) => f[0]), x: funnel.map((f) => f[1]), textinfo: "value+percent initial" }],
  layout: { title: { text: "Competition task funnel (paper)" }, margin: { l: 200 } },
}));
// %% [markdown]
// ## The kit's corpus through its own funnel
// `openmle task build-corpus` takes every candidate of `data/corpus/candidates.json` (real data sets of
// Debian's R data packages, statsmodels, sklearn, npm and Debian dataset packages) through the same stages:
// export in the jail → framing rules (target, metric, split) → package build + metric verification → the
// deterministic quality checks → the headroom check (a quick reference model must beat a constant baseline
// by a named margin) → the semantic gate (recorded as skipped without an endpoint). Shown: this machine's
// newest build when it has one, else the recorded full build of `bench/gym/corpus.json`; the left panel is
// the share of candidates with a task still in, the right the paper's share of its ~11,000 competitions.
// %%
const corpus = gym.corpusPaths();
async function corpusFunnel(): Promise<[gym.FunnelTable, string]> {
  if (!process.env.OPENMLE_NOTEBOOK_HEADLESS && existsSync(join(corpus.workspace, "openmle.duckdb"))) {
    const cws = await openWorkspace(corpus.workspace, { readOnly: true });
    try {
      const f = (await gym.loadFunnel(cws))!;
      return [gym.funnelTable(f.records, f.tasks), f.buildId];
    } finally {
      cws.close();
    }
  }
  const recorded = JSON.parse(readFileSync(join(gym.projectRoot(), "bench", "gym", "corpus.json"), "utf8"));
  return [recorded.funnel, `${recorded.build_id} (recorded: bench/gym/corpus.json)`];
}
const [kitFunnel, kitBuild] = await corpusFunnel();
console.log(gym.funnelText(kitFunnel, kitBuild));
tslab.display.html(notebookFigure(corpusFunnelFigure(kitFunnel, gym.PAPER_FUNNEL)));
