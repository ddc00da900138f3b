// %% [markdown]
// # 03 · Operators: the grammar policy and the LLM prompt
// The four operators (Draft, Improve, Debug, Crossover) turn a task and an operator context into a program.
// Offline, the kit writes programs with its **grammar policy**: it samples a typed solution spec (features,
// models, validation, ensembling) from explicit categorical distributions, records every decision with its
// log-probability, and renders the spec into a readable `main.py` that follows the program contract.
// This notebook runs each operator on the built-in `cars` task (RMSE, lower is better, where the policy's choices
// change the score: bench/notebooks), executes the programs in the sandbox,
// re-scores a program with `logProb`, and shows the exact prompt the LLM policy would send for the same step.
// %%
import * as tslab from "tslab";
import { createGrammarPolicy, createRng, grammarLogProb, htmlTable, policy, resolveTask, runSandbox, type ExecutionRecord } from "openmle";

const task = await resolveTask("cars");
const grammar = createGrammarPolicy();
const budget = { remainingSteps: 8, remainingTimeS: 1800, perRunTimeLimitS: 120 };
const limits = { timeoutS: 120, memoryMb: 4096, cpus: 2 };
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
const pre = (s: string, maxLines = 400) => tslab.display.html(`<pre style="max-height:360px;overflow:auto">${esc(s.split("\n").slice(0, maxLines).join("\n"))}</pre>`);
const recordRow = (label: string, r: ExecutionRecord) => ({ node: label, status: r.status, valid_score: r.validScore, test_score: r.testScore, signature: r.errorSignature, wall_s: Number(r.wallS.toFixed(1)) });
const view = (nodeId: string, out: { code: string; plan: string; spec: unknown }, r: ExecutionRecord, operator: "draft" | "improve" | "debug" | "crossover" = "draft") => ({
  nodeId, operator, code: out.code, plan: out.plan, spec: out.spec, status: r.status, validScore: r.validScore,
  errorSignature: r.errorSignature, traceback: r.traceback, stdoutTail: r.stdoutTail,
});
// (tslab does not rewrite shorthand properties that name cell variables: write `key: value`.)
const ctx = (parents: ReturnType<typeof view>[]) => ({ parents, budget: budget });
console.log(`${task.meta.name}: ${task.meta.modality} ${task.meta.taskType}, metric ${task.meta.metric}, ${task.meta.nTrain} training rows`);
// %% [markdown]
// ## Draft
// A draft samples a spec suited to the task's modality and size. The plan lists the choices; the program
// is complete and runnable on its own (`DATA_DIR=... python main.py`).
// %%
const d1 = await grammar.propose(task, "draft", ctx([]), createRng(1));
pre(d1.plan);
pre(d1.code);
// %%
const r1 = await runSandbox({ task: task, code: d1.code, limits: limits });
tslab.display.html(htmlTable([recordRow("draft 1", r1)]));
pre(r1.stdoutTail);
// %% [markdown]
// ## Every decision has a log-probability
// `choices` are the sampled decisions; `logProb(params, program, task, operator, context)` replays the
// program's trace (kept as its last comment line) through the same operator and re-scores it. This is the
// log g_θ(p | τ, a, c) of the L_evo objective; `gradientStep` moves the logits for SFT/RL.
// %%
tslab.display.html(htmlTable(d1.choices.map((c) => ({ decision: c.name, value: c.value, options: c.options.length, log_prob: Number(c.logProb.toFixed(3)) }))));
const replayed = grammarLogProb(grammar.params, d1.code, task, "draft", ctx([]));
const stepped = policy.gradientStep(grammar.params, [{ choices: d1.choices, weight: 1 }], 0.5);
console.log(`recorded ${d1.logProb.toFixed(4)} · replayed ${replayed.toFixed(4)} · after one SFT step on it ${grammarLogProb(stepped, d1.code, task, "draft", ctx([])).toFixed(4)}`);
// %% [markdown]
// ## Improve
// Improve edits one or two parts of the parent's spec (tune a hyperparameter, swap or add a model, change a
// feature block, k-fold validation, more rows), with the edit distribution conditioned on the parent's card.
// %%
const n1 = view("draft-1", d1, r1);
const imp = await grammar.propose(task, "improve", ctx([n1]), createRng(2));
pre(imp.plan);
const rImp = await runSandbox({ task: task, code: imp.code, limits: limits });
tslab.display.html(htmlTable([recordRow("draft 1", r1), recordRow("improve", rImp)]));
// %% [markdown]
// ## Debug
// A real failure: the draft again, with a 0.2-second limit (less than Python's start-up and imports take, so it
// times out on any machine; at 1 s a fast machine finished it). Debug maps the failure (status,
// signature, traceback) to a repair (timeout → smaller model, subsample, holdout or a single model) and the
// repaired program runs within the normal limit.
// %%
const rFail = await runSandbox({ task: task, code: d1.code, limits: { ...limits, timeoutS: 0.2 }, rerun: true });
const dbg = await grammar.propose(task, "debug", ctx([view("draft-1-timeout", d1, rFail)]), createRng(3));
pre(dbg.plan);
const rDbg = await runSandbox({ task: task, code: dbg.code, limits: limits });
tslab.display.html(htmlTable([recordRow("draft 1 (0.2 s limit)", rFail), recordRow("debug", rDbg)]));
tslab.display.html(htmlTable(Object.entries(policy.REPAIRS_BY_KIND).map(([kind, repairs]) => ({ failure: kind, repairs: repairs.join(", ") })), { caption: "Debug: failure kind → repairs" }));
// %% [markdown]
// ## Crossover
// Crossover combines two parents: an ensemble of their models, the better parent's models on the other's
// features, or the union of both feature blocks.
// %%
const d2 = await grammar.propose(task, "draft", ctx([]), createRng(4));
const r2 = await runSandbox({ task: task, code: d2.code, limits: limits });
const cx = await grammar.propose(task, "crossover", ctx([n1, view("draft-2", d2, r2)]), createRng(5));
pre(cx.plan);
const rCx = await runSandbox({ task: task, code: cx.code, limits: limits });
tslab.display.html(htmlTable([recordRow("draft 1", r1), recordRow("draft 2", r2), recordRow("crossover", rCx)]));
// %% [markdown]
// On `cars` the operators move the score, not always for the better: the Improve (a k-NN averaged into draft 1)
// made it worse (validation RMSE 3.306 → 3.621, hidden test 3.483 → 3.57); the crossover's stack beats both parents
// on validation (2.739 against 2.931) but not draft 2 on the hidden test (3.047 against 3.008), the validation →
// test gap notebook 04 measures over whole searches.
// %% [markdown]
// ## What the policy reads from a context
// A harness hands an operator its parents and, as data, what its memory shows (`context.shown`); the memory
// text an LLM reads is rendered from the same object (`renderShown`). The grammar policy reads it through
// `contextEvidence`: which model families the shown nodes used and how they did, which failed and how, which
// kinds of edit gained. Each option of a decision then carries labels (`untried`, `failed1`, `best`, `gained`,
// ...) whose weights (measured on the built-in suite, `bench/policy`) add to its logit. Here the five nodes above
// become a small memory, and the next draft and Improve are drawn with and without it.
// %%
const entry = (id: string, out: { plan: string; spec: unknown }, r: ExecutionRecord, operator: "draft" | "improve" | "crossover", gain: number | null = null) => {
  const idea = out.plan.split("\n")[0]!;
  const models = (out.spec as policy.SolutionSpec).models.map((m) => m.family);
  return { nodeId: id, operator: operator, role: "history" as const, methodFamily: policy.methodFamily(out.spec as policy.SolutionSpec), models: models, status: r.status, validScore: r.validScore,
    errorSignature: r.errorSignature, gain: gain, change: null, idea: idea, text: `- ${id}: ${idea} → ${r.validScore ?? r.status}` };
};
const sign = task.meta.higherIsBetter ? 1 : -1;
const gainOf = (r: ExecutionRecord, parent: ExecutionRecord) => (r.validScore !== null && parent.validScore !== null ? sign * (r.validScore - parent.validScore) : null);
const shown = { sections: [{ title: "Nodes so far:", entries: [entry("draft-1", d1, r1, "draft"), entry("improve", imp, rImp, "improve", gainOf(rImp, r1)),
  entry("draft-1-timeout", d1, rFail, "draft"), entry("draft-2", d2, r2, "draft"), entry("crossover", cx, rCx, "crossover", gainOf(rCx, r1))] }], budget: true };
const withMemory = (parents: ReturnType<typeof view>[]) => ({ parents: parents, shown: shown, memory: policy.renderShown(shown, budget), budget: budget });
pre(withMemory([]).memory);
const ev = policy.grammar.contextEvidence(withMemory([]), task.meta.higherIsBetter);
tslab.display.html(htmlTable([...ev.families.entries()].map(([family, e]) => ({ family: family, tried: e.tried, succeeded: e.succeeded, failed: e.failed,
  best: e.best === null ? null : sign * e.best, "failure kinds": e.failureKinds.join(", ") || "none" })), { caption: "contextEvidence: model families in the memory (best in the metric's units)" }));
// %%
const distRows = async (op: "draft" | "improve", parents: ReturnType<typeof view>[], decision: string) => {
  const a = (await grammar.propose(task, op, withMemory(parents), createRng(6))).choices.find((c) => c.name.includes(decision))!;
  const b = (await grammar.propose(task, op, ctx(parents), createRng(6))).choices.find((c) => c.name === a.name);
  const bare = b ? policy.grammar.choiceDistribution(grammar.params, b) : [];
  return policy.grammar.choiceDistribution(grammar.params, a).map((d) => ({ decision: a.name, option: d.option, labels: d.labels.join(", "),
    "p with memory": (100 * d.p).toFixed(1) + "%", "p without": bare.find((x) => x.option === d.option) ? (100 * bare.find((x) => x.option === d.option)!.p).toFixed(1) + "%" : "–" }));
};
tslab.display.html(htmlTable([...(await distRows("draft", [], ".model")), ...(await distRows("improve", [n1], ".edit."))], { caption: "Options, their context labels and probabilities" }));
// %% [markdown]
// ## The LLM policy's prompt for the same Improve step
// With an LLM, the same operator and context become a typed prompt rendered by one pure function; this is
// exactly what would be sent (no request is made here).
// %%
const prompt = policy.buildPrompt(task, "improve", ctx([n1]));
for (const m of policy.renderPrompt(prompt)) pre(`[${m.role}]\n${m.content}`, 200);
