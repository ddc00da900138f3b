/**
 * The one pure function that turns an OperatorPrompt into chat messages. No I/O, no clock, no
 * randomness: the same prompt object always renders to the same messages.
 * A system message states the role, the program contract and the answer format; one user
 * message holds the task, the data, the budget, the operator's context and its instructions.
 */
import type { ChatMessage } from "../../llm/spec.js";
import type { Operator } from "../types.js";
import type { OperatorPrompt, ProgramContract, PromptNode } from "./operator-prompt.js";

export function renderPrompt(p: OperatorPrompt): ChatMessage[] {
  return [
    { role: "system", content: renderSystem(p.contract) },
    { role: "user", content: renderUser(p) },
  ];
}

function renderSystem(c: ProgramContract): string {
  const dir = c.higherIsBetter ? "higher is better" : "lower is better";
  const extra = c.files.extra?.length ? `, ${c.files.extra.join(", ")}` : "";
  return [
    "You are an expert machine-learning engineer. You write one complete, self-contained Python " +
      "program (main.py) that trains a model on a Kaggle-style task and predicts the test set.",
    "",
    "Program contract (the program is run as `python main.py` and checked automatically):",
    `1. Read the data from the folder named by the environment variable ${c.dataDirEnv}: ` +
      `\`data_dir = os.environ["${c.dataDirEnv}"]\`. It holds ` +
      `${c.files.train}, ${c.files.test}, ${c.files.sampleSubmission}${extra}. Never write there.`,
    `2. Write the predictions to \`${c.submissionFile}\` in the current working directory, with ` +
      `exactly the columns ${c.submissionColumns.map((s) => `\`${s}\``).join(", ")} of ` +
      `${c.files.sampleSubmission} and one row per test row.`,
    `3. Hold out validation data from the training set, compute the task ` +
      `metric (${c.metric}, ${dir}) on it and print exactly one line \`${c.scoreLine}\`.`,
    `4. Finish within ${formatDuration(c.perRunTimeLimitS)} of wall-clock time. There is no network: download nothing.`,
    `5. Use only the Python standard library and: ${c.packages.join(", ")}.`,
    "",
    "Answer format: first a short plan in plain prose (at most 6 sentences), then the complete " +
      "program in a single ```python code block. Give no other code blocks.",
  ].join("\n");
}

function renderUser(p: OperatorPrompt): string {
  const parts: string[] = [
    `# Task: ${p.task.name} (${p.task.id})`,
    p.task.description,
    "# Data overview",
    p.dataOverview,
    "# Budget",
    [
      `- search steps remaining: ${p.budget.remainingSteps}`,
      `- search time remaining: ${formatDuration(p.budget.remainingTimeS)}`,
      `- time limit of one run of your program: ${formatDuration(p.budget.perRunTimeLimitS)}`,
    ].join("\n"),
  ];
  const label =
    p.operator === "crossover"
      ? (i: number) => `Parent ${String.fromCharCode(65 + i)}`
      : () => (p.operator === "debug" ? "Failing program" : "Parent program");
  p.parents.forEach((n, i) => parts.push(...renderNode(`${label(i)}`, n, p.contract.metric)));
  if (p.failures.length)
    parts.push(
      "# Related attempts (same error signature first, then the most recent)",
      p.failures.map(failureLine).join("\n"),
    );
  if (p.ancestors.length) parts.push("# Ancestors (nearest first)", p.ancestors.map(oneLine).join("\n"));
  if (p.siblings.length)
    parts.push("# Sibling attempts (highest selection utility first)", p.siblings.map(oneLine).join("\n"));
  if (p.memory) parts.push("# Memory", p.memory);
  parts.push("# Your job", instructions(p.operator, p.contract));
  return parts.join("\n\n");
}

function renderNode(title: string, n: PromptNode, metric: string): string[] {
  const out = [`# ${title}: node ${n.nodeId} (${n.operator}; ${outcome(n, metric)})`];
  if (n.plan.trim()) out.push(`Plan: ${n.plan.trim()}`);
  if (n.summary) out.push(`Summary: ${n.summary}`);
  out.push("```python\n" + n.code.trimEnd() + "\n```");
  if (n.traceback) out.push("Error:\n```\n" + n.traceback.trimEnd() + "\n```");
  if (n.stdoutTail) out.push("End of its output:\n```\n" + n.stdoutTail.trimEnd() + "\n```");
  return out;
}

function outcome(n: PromptNode, metric: string): string {
  if (n.status === "success") return `validation ${metric} = ${n.validScore ?? "not printed"}`;
  return `${n.status}${n.errorSignature ? `, ${n.errorSignature}` : ""}`;
}

function oneLine(n: PromptNode): string {
  const what = n.summary ?? (n.plan.split("\n")[0] ?? "").slice(0, 200);
  const family = n.methodFamily ? `, ${n.methodFamily}` : "";
  const score =
    n.status === "success"
      ? `score ${n.validScore ?? "?"}`
      : `${n.status}${n.errorSignature ? ` (${n.errorSignature})` : ""}`;
  return `- ${n.nodeId} [${n.operator}${family}; ${score}]: ${what}`;
}

function failureLine(n: PromptNode): string {
  if (n.status === "success") return oneLine(n);
  const last = (n.traceback ?? "").trim().split("\n").filter(Boolean).at(-1) ?? "";
  return (
    `- ${n.nodeId} [${n.status}${n.errorSignature ? `, ${n.errorSignature}` : ""}]: ` +
    `${last || (n.plan.split("\n")[0] ?? "")}`
  );
}

function instructions(op: Operator, c: ProgramContract): string {
  const goal = `${c.higherIsBetter ? "raise" : "lower"} the validation ${c.metric}`;
  switch (op) {
    case "draft":
      return (
        `Draft a first complete solution: a sound, well-validated approach suited to this data ` +
        `that runs comfortably within the time limit. Then give the full program.`
      );
    case "improve":
      return (
        `Improve the parent program: make one or two focused changes (features, model, ` +
        `hyper-parameters, validation or ensembling) that should ${goal}. Keep what works and stay ` +
        `within the time limit. Explain the change in the plan, then give the full updated program.`
      );
    case "debug":
      return (
        `Fix the failing program. Find the cause of the error above (the related attempts show ` +
        `what else failed and what worked), change as little as needed, and make sure ` +
        `it writes ${c.submissionFile} and prints \`${c.scoreLine}\`. Explain the fix in the plan, ` +
        `then give the full corrected program.`
      );
    case "crossover":
      return (
        `Combine the two parent programs into one that should ${goal}: take the stronger part ` +
        `of each (features, preprocessing, models), or ensemble their models. Explain what comes ` +
        `from which parent, then give the full program.`
      );
  }
}

/** 5400 → "1h 30m", 90 → "1m 30s", 45 → "45s" (pure, for budgets). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`;
  if (m > 0) return r > 0 ? `${m}m ${r}s` : `${m}m`;
  return `${r}s`;
}
