// %% [markdown]
// # 07 · SFT: execution-grounded training data and SFT of the grammar policy
// `collectSft` turns executed programs into chat examples (docs/paper-map.md: SFT collection). Two paths feed it:
// - **parallel**: complete Drafts sampled from one or more teachers, executed and graded; kept per task are the top 4
//   by graded reward (RL's base reward of the hidden test score; > 0 required, the trivial baseline or the
//   leaderboard's last team as the lowest bound) among drafts whose printed validation is within 12 % of the test
//   score (the reference's baseline filter), attempts in batches until the quota or the budget is spent;
// - **evolutionary**: local segments of stored evolve trees (a Draft/Improve/Crossover node and its Debug
//   descendants), accepted when the endpoint is valid, beats its parent(s), reaches a threshold (bronze on a
//   leaderboard task, else the run's top 25 %) and passes the same baseline filter; multi-step segments go to the
//   causal-inheritance judge.
//
// Each kept program becomes one example: the exact prompt the kit's LLM policy would send for that operator and
// context, and the program as the reply. Then the grammar policy is trained on the examples it wrote
// (L_evo with w = 1) and stored as a named checkpoint that `evolve --params` loads.
//
// Small budgets keep this notebook under a minute; `bench/erl` has the larger measurement.
// %%
import * as tslab from "tslab";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGrammarPolicy, erl, evolve, htmlTable, openWorkspace, policy, resolveTask, runSandbox } from "openmle";

const penguins = await resolveTask("penguins");
const cars = await resolveTask("cars");
const dir = mkdtempSync(join(tmpdir(), "nb07-"));
const ws = await openWorkspace(join(dir, "ws"));
const evaluate = (job: Parameters<typeof runSandbox>[0]) => runSandbox({ ...job, workspace: ws });
const run = await evolve({ task: penguins, workspace: ws, evaluate: evaluate, runId: "evo-penguins", config: { steps: 3, seed: 2, gen0Drafts: 2, perRunTimeoutS: 300 } });
console.log(`evolve run ${run.runId}: ${run.nodes.map((n) => `${n.nodeId} ${n.operator} ${n.status} ${n.validScore ?? ""}`).join(" · ")}`);
// %% [markdown]
// ## Collect
// Parallel drafts on `penguins` (accuracy, higher is better) and `cars` (RMSE, lower is better) with the grammar
// policy as the teacher, plus the stored run. No judge endpoint is given, so the dataset records `judge: "skipped"`.
// %%
const res = await erl.collectSft({
  workspace: ws, dataset: "nb07", tasks: [penguins, cars], teachers: { primary: createGrammarPolicy() }, runs: "all", evaluate: evaluate,
  config: { batchSize: 2, maxAttempts: 2, perTaskCap: 2, concurrency: 2, perRunTimeoutS: 300, seed: 1 },
});
console.log(`${res.examples.length} examples, judge ${res.judge}, ${res.dropped.duplicates} duplicates dropped, ${res.dropped.overTokens} over ${res.config.maxTokens} tokens, ${res.wallS.toFixed(0)} s`);
tslab.display.html(htmlTable(res.parallel.map((p) => ({ task: p.taskId, attempts: p.attempts, batches: p.batches, valid: p.valid, kept: p.kept, sandbox_s: p.sandboxS.toFixed(1), stop: p.stopReason })), { caption: "Parallel path: attempts per task" }));
// %% [markdown]
// ## Segments: accepted or rejected, and why
// %%
tslab.display.html(htmlTable(res.segments.map((s) => ({
  run: s.runId, segment: s.steps.join(" → "), operator: s.operator, endpoint_score: s.endpointScore, threshold: `${s.threshold.toFixed(4)} (${s.thresholdKind})`, verdict: s.reason, kept: s.kept.join(", "),
})), { caption: "Evolutionary path" }));
// %% [markdown]
// ## Composition beside the paper's
// The paper's 26,259 examples: Draft 74.0 %, Debug 16.5 %, Improve 6.6 %, Crossover 2.8 %. A 3-step run cannot
// match that mix; the table shows what this collection holds.
// %%
tslab.display.html(htmlTable(res.composition.map((c) => ({ operator: c.operator, parallel: c.parallel, evolution: c.evolution, share: `${c.sharePct.toFixed(1)} %`, paper: `${c.paperPct.toFixed(1)} %` }))));
// %% [markdown]
// ## One example
// The system and user messages are what `createLlmPolicy` would send (`buildPrompt` + `renderPrompt`); the
// assistant message is the plan and the program. Here the user message's first lines and the reply's head.
// %%
const ex = res.examples[0]!;
console.log(`${ex.taskId} · ${ex.operator} · ${ex.path} · teacher ${ex.teacher} · score ${ex.score} · ${ex.tokens} Qwen3 tokens`);
for (const m of ex.messages) console.log(`--- ${m.role} ---\n${m.content.split("\n").slice(0, 12).join("\n")}\n...`);
// %% [markdown]
// ## Read it back: Arrow and danfojs, and the JSONL export
// %%
const table = await erl.datasetArrow(ws, "nb07");
console.log(`Arrow: ${table.numRows} rows, columns ${table.schema.fields.map((f) => f.name).join(", ")}`);
(await erl.datasetDanfo(ws, "nb07")).loc({ columns: ["task_id", "operator", "path", "score", "tokens"] }).print();
const jsonl = await erl.exportDataset(ws, "nb07", join(dir, "nb07.jsonl"));
console.log(`${jsonl.examples} examples → ${jsonl.file}`);
// %% [markdown]
// ## SFT of the grammar policy
// Maximum likelihood of the kept programs' decisions (L_evo, w = 1), one full-batch step per epoch (defaults: 10
// epochs, lr 0.5), a fifth of the examples held out. The result is the checkpoint `sft-nb07` (parent `default`).
// With a handful of examples the train likelihood rises and the held-out one may well fall: the policy moves towards
// these few programs. `bench/erl` measures the held-out gain on a larger collection.
// %%
const trained = await erl.sftTrain(ws, { dataset: "nb07", from: "default", to: "sft-nb07", config: { heldOut: 0.2, seed: 0 } });
const mt = trained.metrics;
const f3 = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));
tslab.display.html(htmlTable([
  { split: "train", examples: mt.trainExamples, before: f3(mt.trainLogLikBefore), after: f3(mt.trainLogLikAfter) },
  { split: "held-out", examples: mt.heldOutExamples, before: f3(mt.heldOutLogLikBefore), after: f3(mt.heldOutLogLikAfter) },
], { caption: "Mean log-likelihood per program" }));
// %% [markdown]
// ## How the decision probabilities moved
// The tabular Draft's model choice under the default params and under the checkpoint.
// %%
const ck = await erl.loadCheckpoint(ws, "sft-nb07");
const options = ["hist_gb", "xgboost", "random_forest", "extra_trees", "linear", "gradient_boosting", "svm", "knn", "torch_mlp"];
const before = policy.grammar.logSoftmax(policy.defaultGrammarParams(), "draft.tabular.model", options);
const after = policy.grammar.logSoftmax(ck.params, "draft.tabular.model", options);
tslab.display.html(htmlTable(options.map((o, i) => ({ model: o, p_default: Math.exp(before[i]!).toFixed(3), p_sft: Math.exp(after[i]!).toFixed(3), change: (Math.exp(after[i]!) - Math.exp(before[i]!)).toFixed(3) }))));
console.log(`checkpoints: ${(await erl.listCheckpoints(ws)).map((c) => `${c.name} (from ${c.parent}, ${c.source}, dataset ${c.dataset})`).join("; ")}`);
ws.close();
