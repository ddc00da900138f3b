/**
 * An operator prompt as a typed object: everything the model will be shown, already selected
 * and trimmed, so that `renderPrompt` (render-prompt.ts) is a pure formatting step and a notebook
 * can show (or diff) the exact prompt before it is sent.
 */
import type { TaskPackage } from "../../gym/types.js";
import type { FeedbackMode } from "../../sandbox/types.js";
import type { NodeView, Operator, OperatorContext } from "../types.js";
import { dataOverview } from "./data-overview.js";
import { LlmPolicyConfig, type LlmPolicyConfigInput } from "./llm-policy-config.js";
import { promptChars } from "../../llm/recording-model.js";
import { renderPrompt } from "./render-prompt.js";

/** The program contract (docs/paper-map.md: Task packages), stated in every prompt. */
export interface ProgramContract {
  readonly dataDirEnv: "DATA_DIR";
  readonly submissionFile: "submission.csv";
  readonly scoreLine: "Final Validation Score: <float>";
  readonly files: TaskPackage["meta"]["files"];
  readonly submissionColumns: readonly string[];
  readonly metric: string;
  readonly higherIsBetter: boolean;
  readonly perRunTimeLimitS: number;
  readonly packages: readonly string[];
}

/** A node as shown to the model (code and logs already cut to the configured sizes). */
export interface PromptNode {
  readonly nodeId: string;
  readonly operator: Operator;
  readonly plan: string;
  readonly code: string;
  readonly status: FeedbackMode;
  readonly validScore: number | null;
  readonly errorSignature: string | null;
  readonly traceback: string | null;
  readonly stdoutTail: string | null;
  readonly methodFamily: string | null;
  readonly summary: string | null;
}

export interface OperatorPrompt {
  readonly operator: Operator;
  readonly task: {
    readonly id: string;
    readonly name: string;
    readonly description: string;
  };
  readonly dataOverview: string;
  readonly contract: ProgramContract;
  /** improve/debug: one; crossover: two; draft: none. */
  readonly parents: readonly PromptNode[];
  /** One-liners; empty when the memory block already lists them (listRelatives: auto). */
  readonly ancestors: readonly PromptNode[];
  readonly siblings: readonly PromptNode[];
  /** Debug: related attempts, same error signature first, then the most recent (any outcome). */
  readonly failures: readonly PromptNode[];
  readonly memory: string | null;
  readonly budget: OperatorContext["budget"];
}

const EXPECTED_PARENTS: Record<Operator, number> = { draft: 0, improve: 1, debug: 1, crossover: 2 };

/** Build the typed prompt for one operator call (reads the head of train.csv). */
export function buildPrompt(
  task: TaskPackage,
  operator: Operator,
  context: OperatorContext,
  configIn: LlmPolicyConfigInput = {},
): OperatorPrompt {
  const cfg = LlmPolicyConfig.parse(configIn);
  const need = EXPECTED_PARENTS[operator];
  if (context.parents.length < need) {
    throw new RangeError(
      `${operator} needs ${need} parent${need === 1 ? "" : "s"} in its context, got ${context.parents.length}. ` +
        `The search must pass the parent node(s) in context.parents.`,
    );
  }
  const node = (n: NodeView): PromptNode => ({
    nodeId: n.nodeId,
    operator: n.operator,
    plan: n.plan,
    code: cutMiddle(n.code, cfg.maxCodeChars),
    status: n.status,
    validScore: n.validScore,
    errorSignature: n.errorSignature,
    traceback: n.traceback ? keepEnd(n.traceback, cfg.maxTracebackChars) : null,
    stdoutTail: n.stdoutTail ? keepEnd(n.stdoutTail, cfg.maxStdoutChars) : null,
    methodFamily: n.methodFamily ?? null,
    summary: n.summary ?? null,
  });
  const memory = context.memory?.trim() ? context.memory.trim() : null;
  const listRelatives = cfg.listRelatives === "always" || (cfg.listRelatives === "auto" && memory === null);
  const meta = task.meta;
  return {
    operator,
    task: { id: meta.id, name: meta.name, description: task.description.trim() },
    dataOverview: dataOverview(task, cfg),
    contract: {
      dataDirEnv: "DATA_DIR",
      submissionFile: "submission.csv",
      scoreLine: "Final Validation Score: <float>",
      files: meta.files,
      submissionColumns: [meta.idColumn, ...meta.targetColumns],
      metric: meta.metric,
      higherIsBetter: meta.higherIsBetter,
      perRunTimeLimitS: context.budget.perRunTimeLimitS,
      packages: cfg.packages,
    },
    parents: context.parents.slice(0, need).map(node),
    ancestors: listRelatives ? (context.ancestors ?? []).map(node) : [],
    siblings: listRelatives ? (context.siblings ?? []).map(node) : [],
    failures: operator === "debug" ? (context.failures ?? []).slice(0, cfg.maxFailures).map(node) : [],
    memory,
    budget: context.budget,
  };
}

/** Keep the start and the end of a long text, marking the cut. */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n# … ${text.length - 2 * half} characters cut …\n${text.slice(text.length - half)}`;
}

/** Keep the end of a long log (where errors are). */
export function keepEnd(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}

/**
 * Characters of the operator prompt a context renders to: Σ over the rendered messages of their content length,
 * at the LLM policy's defaults (`config` overrides them). Harnesses record it for every policy, so a grammar run
 * carries the same prompt-size measure as an LLM run (the paper's Improve prompt p99). Null when the context has
 * fewer parents than the operator's prompt needs (buildPrompt would refuse it; a grammar policy may still act).
 */
export function operatorPromptChars(
  task: TaskPackage,
  operator: Operator,
  context: OperatorContext,
  config: LlmPolicyConfigInput = {},
): number | null {
  if (context.parents.length < EXPECTED_PARENTS[operator]) return null;
  return promptChars(renderPrompt(buildPrompt(task, operator, context, config)));
}
