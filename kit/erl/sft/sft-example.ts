import type { TaskPackage } from "../../gym/types.js";
import { countTextTokens, renderQwen3Chat } from "../../llm/index.js";
import type { ChatMessage } from "../../llm/spec.js";
import {
  replayChoices,
  uniformGrammarParams,
  traceFromProgram,
  type GrammarChoice,
} from "../../policy/grammar/index.js";
import { buildPrompt, renderPrompt, type LlmPolicyConfigInput } from "../../policy/llm/index.js";
import type { Operator, OperatorContext } from "../../policy/types.js";

/** One chat example of the SFT dataset, with where it came from. */
export interface SftExample {
  readonly taskId: string;
  readonly operator: Operator;
  readonly path: "parallel" | "evolution";
  /** The teacher policy's name (parallel) or the run's policy (evolution). */
  readonly teacher: string;
  readonly score: number | null;
  readonly sourceRun: string | null;
  readonly sourceNode: string | null;
  /** system + user: what the kit's LLM policy would send; assistant: plan + the program. */
  readonly messages: readonly ChatMessage[];
  readonly program: string;
  /** Grammar-policy decisions (with their options) when the grammar policy wrote the program: what SFT of the grammar
   * policy trains on. */
  readonly choices: readonly GrammarChoice[] | null;
  /** Evolutionary path: the judge's reason for keeping the step (or "judge skipped"). */
  readonly judgeReason: string | null;
  /** Qwen3 chat-template tokens of the whole conversation (set by the token filter). */
  readonly tokens?: number;
}

/** The assistant message: the plan, then the program in one ```python block (parseReply returns both). */
export function assistantMessage(plan: string, program: string): string {
  return `${plan.trim()}\n\n\`\`\`python\n${program.replace(/\s+$/, "")}\n\`\`\``;
}

/** The exact messages the LLM policy would send (buildPrompt + renderPrompt), plus the program as the reply. */
export function exampleMessages(
  task: TaskPackage,
  operator: Operator,
  context: OperatorContext,
  plan: string,
  program: string,
  llmPolicy: LlmPolicyConfigInput = {},
): ChatMessage[] {
  return [
    ...renderPrompt(buildPrompt(task, operator, context, llmPolicy)),
    { role: "assistant", content: assistantMessage(plan, program) },
  ];
}

/**
 * The decisions of one program written by the grammar policy, with everything that decides their
 * distribution: its `# grammar-trace:` replayed (grammar-policy `replayChoices`) through the same operator,
 * task and context. Replayed under the uniform version-3 params, so each choice carries the decision
 * features and the options' context labels a version-3 chooser computes; params of versions 1 and 2 ignore
 * the labels when scored (params.ts), as their chooser does. null for a program without a trace; throws
 * GrammarReplayError when the trace does not fit the context.
 */
export function programProbes(
  task: TaskPackage,
  operator: Operator,
  context: OperatorContext,
  program: string,
): GrammarChoice[] | null {
  if (!traceFromProgram(program)) return null;
  return replayChoices(uniformGrammarParams(), program, task, operator, context);
}

/**
 * `programProbes` for SFT examples: what the policy saw at each decision (the call's decision features and the
 * options' context labels), so SFT's gradient reaches the feature and label weights, not only the featureless logits
 * of the trained tasks' modalities (issue 30). null for other programs or when the trace does not fit the context.
 */
export function grammarChoicesOf(
  task: TaskPackage,
  operator: Operator,
  context: OperatorContext,
  program: string,
): GrammarChoice[] | null {
  try {
    return programProbes(task, operator, context, program);
  } catch {
    return null;
  }
}

/** Tokens of a whole conversation under Qwen3's chat template (no generation prompt). */
export async function chatTokens(messages: readonly ChatMessage[]): Promise<number> {
  return countTextTokens(await renderQwen3Chat(messages, false));
}

/** Apply the Qwen3 template and drop examples over `maxTokens`; kept ones carry their count. */
export async function tokenFilter<E extends SftExample>(
  examples: readonly E[],
  maxTokens: number,
): Promise<{ kept: (E & { readonly tokens: number })[]; overLimit: number }> {
  const kept: (E & { readonly tokens: number })[] = [];
  for (const e of examples) {
    const tokens = await chatTokens(e.messages);
    if (tokens <= maxTokens) kept.push({ ...e, tokens });
  }
  return { kept, overLimit: examples.length - kept.length };
}
