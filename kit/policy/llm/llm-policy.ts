/**
 * The LLM policy: (task, operator, context) → typed prompt → chat messages → one model call →
 * {plan, code}. Wrap the model with `recordingModel` (kit/llm) to log every call in llm_calls;
 * the request carries purpose "operator", the operator, and the run/node ids from the context.
 */
import { LlmError } from "../../llm/errors.js";
import type { ChatMessage, LanguageModel } from "../../llm/spec.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Rng } from "../../util/rng.js";
import type { Operator, OperatorContext, Policy, PolicyOutput } from "../types.js";
import { LlmPolicyConfig, type LlmPolicyConfigInput } from "./llm-policy-config.js";
import { buildPrompt, type OperatorPrompt } from "./operator-prompt.js";
import { parseReply } from "./parse-reply.js";
import { renderPrompt } from "./render-prompt.js";

export interface LlmPolicy extends Policy {
  readonly model: LanguageModel;
  readonly config: LlmPolicyConfig;
  /** The typed prompt and its messages for one call, without calling the model (for notebooks). */
  preview(
    task: TaskPackage,
    operator: Operator,
    context: OperatorContext,
  ): { prompt: OperatorPrompt; messages: ChatMessage[] };
}

export function createLlmPolicy(model: LanguageModel, configIn: LlmPolicyConfigInput = {}): LlmPolicy {
  const config = LlmPolicyConfig.parse(configIn);

  const preview = (task: TaskPackage, operator: Operator, context: OperatorContext) => {
    const prompt = buildPrompt(task, operator, context, config);
    return { prompt, messages: renderPrompt(prompt) };
  };

  // The model samples on its own; `rng` is part of the Policy interface and unused here.
  async function propose(
    task: TaskPackage,
    operator: Operator,
    context: OperatorContext,
    _rng: Rng,
  ): Promise<PolicyOutput> {
    const { messages } = preview(task, operator, context);
    const promptChars = messages.reduce((n, m) => n + m.content.length, 0);
    let result;
    try {
      result = await model.chat({
        messages,
        ...(config.temperature !== null ? { temperature: config.temperature } : {}),
        ...(config.maxTokens !== null ? { maxTokens: config.maxTokens } : {}),
        purpose: "operator",
        operator,
        runId: context.runId,
        nodeId: context.nodeId,
      });
    } catch (e) {
      if (config.onModelError === "missing_code" && e instanceof LlmError) {
        return {
          plan: `model call failed (${e.kind}): ${e.message}`,
          code: null,
          usage: { promptChars, promptTokens: 0, completionTokens: 0, latencyMs: 0 },
        };
      }
      throw e;
    }
    const reply = parseReply(result.text);
    return {
      plan: reply.plan,
      code: reply.code,
      usage: {
        promptChars,
        promptTokens: result.usage.promptTokens,
        completionTokens: result.usage.completionTokens,
        latencyMs: result.latencyMs,
        ...(result.costUsd !== undefined ? { costUsd: result.costUsd } : {}),
      },
    };
  }

  return { name: `llm:${model.modelId}`, model, config, preview, propose };
}
