// %% [markdown]
// # 10 · The LLM policy: the same harness driving a language model
// **The question.** The paper's searches are driven by an LLM (Frontis-MA1). The kit's harness takes any policy, and
// `createLlmPolicy` turns an OpenAI-compatible chat-completions endpoint into one: each operator (Draft, Improve,
// Debug, Crossover) renders a typed prompt, sends it, and parses the reply into a plan and a program. What does the
// model see at each operator, and what does each call cost?
//
// No model can be reached from this machine, so the endpoint here is the kit's own replay server
// (`startReplayServer`; on the command line `openmle llm replay`): a real HTTP server on 127.0.0.1 that answers
// chat-completions requests with scripted replies and records every request. The script below holds programs the
// grammar policy wrote for `cars`, one of them broken on purpose, so an 8-step OpenMLE-Evo run sends all four
// operators' prompts. **The scores are the scripted programs', not a model's**: this notebook shows the mechanics
// (prompts, parsing, recording, the `llm_calls` table), not what an LLM would achieve. Against a real server the
// same run is one command (the end of this notebook).
// %%
import * as tslab from "tslab";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createGrammarPolicy, createLlmPolicy, createOpenAIModel, createRng, evolve, htmlTable, llm, notebookFigure, openWorkspace,
  recordingModel, replies, resolveTask, runSandbox, startReplayServer,
} from "openmle";

const task = await resolveTask("cars");
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
const pre = (s: string, maxLines = 60) => {
  const lines = s.split("\n");
  const cut = lines.length > maxLines ? `\n… (${lines.length - maxLines} more lines)` : "";
  tslab.display.html(`<pre style="max-height:420px;overflow:auto;white-space:pre-wrap">${esc(lines.slice(0, maxLines).join("\n") + cut)}</pre>`);
};
const fmt = (x: number | null, d = 0) => (x === null ? "–" : x.toLocaleString("en-US", { maximumFractionDigits: d }));
// %% [markdown]
// ## The script: what the "model" will answer
// Six programs drawn from the grammar policy (seeds 1–6), each wrapped as an LLM reply would be: a short plan, then
// one fenced ```` ```python ```` block (the answer format the system prompt asks for; `parseReply` takes the largest
// python block). The second reply misspells a pandas call, so its program fails and the harness asks for a Debug.
// Replies are served in order, whatever the operator; past the end the last one repeats.
// %%
const grammar = createGrammarPolicy();
const drafts = [];
for (const seed of [1, 2, 3, 4, 5, 6])
  drafts.push(await grammar.propose(task, "draft", { parents: [], budget: { remainingSteps: 8, remainingTimeS: 1800, perRunTimeLimitS: 120 } }, createRng(seed)));
const reply = (plan: string, code: string) => replies.text(`${plan}\n\n\`\`\`python\n${code}\n\`\`\``);
const firstLine = (i: number) => drafts[i]!.plan.split("\n")[0]!;
const script = [
  reply(`Plan: ${firstLine(0)}`, drafts[0]!.code),
  reply(`Plan: ${firstLine(1)}`, drafts[1]!.code.replace("pd.read_csv(", "pd.read_csvv(")),
  reply("The traceback shows a misspelt pandas call (read_csvv); fix it and keep the rest.", drafts[1]!.code),
  reply(`Plan: ${firstLine(2)}`, drafts[2]!.code),
  reply(`Plan: ${firstLine(3)}`, drafts[3]!.code),
  reply(`Plan: ${firstLine(4)}`, drafts[4]!.code),
  reply(`Plan: ${firstLine(5)}`, drafts[5]!.code),
];
// The same script as a file serves `openmle llm replay --script replies.json` for the command-line run at the end.
const scriptDir = mkdtempSync(join(tmpdir(), "nb10-"));
writeFileSync(join(scriptDir, "replies.json"), JSON.stringify({ model: "replay-model", onExhausted: "repeat-last", replies: script }));
tslab.display.html(htmlTable(script.map((r, i) => ({ reply: i + 1, plan: (r as { text: string }).text.split("\n")[0], "program lines": (r as { text: string }).text.split("\n").length - 3 })),
  { caption: `The replay script (${script.length} replies; also written to ${join(scriptDir, "replies.json")})` }));
// %% [markdown]
// ## An OpenMLE-Evo run driven by the endpoint
// `createOpenAIModel` is the provider every real run uses (retries, timeouts, token counting); `recordingModel`
// writes each call, success or failure, to the workspace's `llm_calls`; `createLlmPolicy` builds the prompts and
// parses the replies. `gen0Drafts: 2` (the CLI's `--gen0-drafts 2`) makes generation 0 two drafts, so Improve and
// Crossover come within 8 steps.
// %%
const server = await startReplayServer(script, { model: "replay-model", onExhausted: "repeat-last" });
const ws = await openWorkspace(join(scriptDir, "ws"));
const model = recordingModel(createOpenAIModel({ baseURL: server.baseURL, model: "replay-model" }), ws);
const run = await evolve({
  task: task, policy: createLlmPolicy(model), workspace: ws, runId: "nb10-llm", evaluate: (job) => runSandbox({ ...job, workspace: ws }),
  config: { harness: "openmle", steps: 8, seed: 1, gen0Drafts: 2, perRunTimeoutS: 120 },
});
await server.close();
tslab.display.html(htmlTable(run.nodes.map((n) => ({
  node: n.nodeId, operator: n.operator, parents: n.parents.join(" + ") || "–", status: n.status, "validation RMSE": n.validScore === null ? "–" : n.validScore.toFixed(3),
  "test RMSE": n.testScore === null ? "–" : n.testScore.toFixed(3), plan: n.plan.split("\n")[0],
})), { caption: `Run ${run.runId}: every node came from one chat-completions call (${server.requests.length} requests served)` }));
// %% [markdown]
// ## What the model sees at each operator
// The prompts as recorded in `llm_calls.prompt` (the exact messages sent). The system message is the same for every
// operator: the role, the program contract and the answer format. The user message is made of sections: the task
// and its data overview, the budget, then the operator's context, then its instructions ("Your job"). Draft sees no
// parent; Improve one parent's plan, code and result; Debug the failing program with its traceback; Crossover two
// parents. For each operator's first call: the outline of its user message, then its instructions in full.
// %%
const calls = await llm.loadLlmCalls(ws, { runId: run.runId });
const messages = (c: llm.LlmCallRow) => JSON.parse(c.prompt ?? "[]") as { role: string; content: string }[];
/** The sections of a user message: its `# ` headings outside code fences (programs have `#` comments too). */
function sections(text: string) {
  const out: { heading: string; body: string[] }[] = [];
  let fence = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    if (!fence && line.startsWith("# ")) out.push({ heading: line.slice(2), body: [] });
    else out.at(-1)?.body.push(line);
  }
  return out;
}
pre(`[system]\n${messages(calls[0]!)[0]!.content}`, 40);
for (const op of ["draft", "improve", "debug", "crossover"]) {
  const c = calls.find((x) => x.operator === op);
  if (!c) { console.log(`no ${op} call in this run`); continue; }
  const parts = sections(messages(c).find((m) => m.role === "user")!.content);
  tslab.display.html(htmlTable(parts.map((p) => ({ section: p.heading, lines: p.body.length, characters: fmt(p.body.join("\n").length) })),
    { caption: `${op}, node ${c.nodeId}: the user message (${fmt(c.promptChars)} characters with the system message, ${fmt(c.promptTokens)} prompt tokens)` }));
  if (op === "debug") {
    const failing = parts.find((p) => p.heading.startsWith("Failing program"))!.body.join("\n");
    pre(failing.slice(failing.lastIndexOf("Error:\n```")), 24); // the traceback the model is shown
  }
  pre(parts.find((p) => p.heading === "Your job")!.body.join("\n").trim(), 40);
}
// %% [markdown]
// ## The calls: sizes, latency and cost
// Every call is a row of `llm_calls` (`llm.loadLlmCalls`): tokens (counted by the provider's usage, or by the kit's
// Qwen3 tokenizer when a server reports none: the replay server counts with the same tokenizer), latency, cost at the
// configured prices (none set here, so 0), status. `llm.summarizeLlmCalls` groups them by operator.
// %%
tslab.display.html(htmlTable(calls.map((c) => ({
  node: c.nodeId, operator: c.operator, status: c.status, "prompt chars": fmt(c.promptChars), "prompt tokens": fmt(c.promptTokens),
  "completion tokens": fmt(c.completionTokens), "tokens counted by": c.tokensSource, "latency ms": fmt(c.latencyMs),
})), { caption: "Every operator call of the run" }));
tslab.display.html(htmlTable(llm.summarizeLlmCalls(calls).map((s) => ({
  operator: s.operator, calls: s.calls, failed: s.failed, "mean prompt tokens": fmt(s.meanPromptTokens), "mean completion tokens": fmt(s.meanCompletionTokens),
  "mean latency ms": fmt(s.meanLatencyMs), "cost USD": s.totalCostUsd.toFixed(4),
})), { caption: "Per operator" }));
tslab.display.html(notebookFigure({
  data: ["draft", "improve", "debug", "crossover"].map((op) => {
    const of = calls.filter((c) => c.operator === op);
    return { type: "bar", name: op, x: of.map((c) => c.nodeId), y: of.map((c) => c.promptTokens) };
  }),
  layout: { title: { text: "Prompt tokens per node, by operator" }, xaxis: { title: { text: "node (in step order)" } }, yaxis: { title: { text: "prompt tokens" } }, barmode: "group" },
}));
ws.close();
// %% [markdown]
// **What it says.** A Crossover prompt carries two parents' code and results, so it is the largest; Improve and
// Debug carry one parent; Draft only the task and its data overview. The run's whole prompt budget is the sum over
// nodes, which is what the paper's search-efficiency figures count (notebook 06: OpenMLE-Evo's context is smaller
// than AIRA-Evo's). Latency here is the replay server's, milliseconds; a real model's is seconds to minutes per call,
// which is why the kit's throughput work (issue 62) counts only the kit's own share of a run.
// %% [markdown]
// ## The same run from the command line, and against a real server
// The replay server as a process, and `evolve` pointed at it (two terminals):
//
// ```bash
// npx openmle llm replay --script replies.json --port 8123
// npx openmle evolve --task cars --policy openai --base-url http://127.0.0.1:8123/v1 --model replay-model \
//   --steps 8 --gen0-drafts 2 --seed 1 --workspace workspaces/llm-replay
// ```
//
// Against an OpenAI-compatible server (vLLM or SGLang serving a Qwen3 model, Ollama, OpenAI), only the endpoint and
// model change; Qwen3's thinking is turned off through the request extras, and `--api-key-env` names the variable
// that holds a key where the server needs one:
//
// ```bash
// npx openmle evolve --task cars --policy openai --base-url http://127.0.0.1:8000/v1 --model Qwen/Qwen3-8B \
//   --llm-extra '{"chat_template_kwargs":{"enable_thinking":false}}' --max-tokens 4096 \
//   --steps 8 --gen0-drafts 2 --seed 1 --workspace workspaces/llm --report reports/llm
// ```
//
// Every call lands in `llm_calls` as above; `openmle runs stats` and the report read the run like any other.
