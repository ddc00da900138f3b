import type { Command } from "commander";
import { createOpenAIModel, LlmConfig, recordingModel, type LanguageModel, type LlmConfigInput } from "../llm/index.js";
import type { Workspace } from "../store/index.js";
import { intFlag, numberFlag } from "./numeric-flag.js";
import { UsageError } from "./run-cli.js";

/** Sampling temperature as OpenAI-compatible servers take it. */
const TEMPERATURE = { min: 0, max: 2 } as const;
/** Completion tokens per call: a million is past any served model's context. */
const MAX_TOKENS = { min: 1, max: 1_000_000 } as const;

/** The LLM flags of commands that drive a model (operator model and, separately, the memory model). */
export interface LlmFlags {
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
  temperature?: string;
  maxTokens?: string;
  llmExtra?: string;
  memoryModel?: string;
  memoryBaseUrl?: string;
}

export function addLlmFlags(cmd: Command): Command {
  return cmd
    .option("--base-url <url>", "--policy openai: endpoint base URL", "http://127.0.0.1:8000/v1")
    .option("--model <id>", "--policy openai: model id", "Qwen/Qwen3-8B")
    .option(
      "--api-key-env <NAME>",
      "environment variable holding the API key (default OPENAI_API_KEY; local servers need none)",
    )
    .option("--temperature <t>", "sampling temperature, 0 to 2 (default 0.7)")
    .option("--max-tokens <n>", "most completion tokens per call (default 4096)")
    .option(
      "--llm-extra <json>",
      "extra JSON merged into every request, e.g. " +
        '\'{"chat_template_kwargs":{"enable_thinking":false}}\' for Qwen3 on vLLM',
    )
    .option("--memory-model <id>", "a model for on-demand node summaries (default: none, deterministic card summaries)")
    .option("--memory-base-url <url>", "--memory-model's endpoint (default: --base-url)");
}

/** The operator model's settings from the flags; bad values name the flag. */
export function llmConfigFromFlags(o: LlmFlags, model = o.model, baseURL = o.baseUrl): LlmConfig {
  let extraBody: Record<string, unknown> | undefined;
  if (o.llmExtra !== undefined) {
    try {
      extraBody = JSON.parse(o.llmExtra) as Record<string, unknown>;
    } catch {
      throw new UsageError(
        `--llm-extra must be a JSON object, e.g. ` +
          `'{"chat_template_kwargs":{"enable_thinking":false}}'; got ${o.llmExtra}`,
      );
    }
    if (!extraBody || typeof extraBody !== "object" || Array.isArray(extraBody))
      throw new UsageError(`--llm-extra must be a JSON object; got ${o.llmExtra}`);
  }
  const input: LlmConfigInput = {
    ...(baseURL ? { baseURL } : {}),
    ...(model ? { model } : {}),
    ...(o.apiKeyEnv ? { apiKeyEnv: o.apiKeyEnv } : {}),
    ...(o.temperature !== undefined ? { temperature: numberFlag("temperature", o.temperature, TEMPERATURE) } : {}),
    ...(o.maxTokens !== undefined ? { maxTokens: intFlag("max-tokens", o.maxTokens, MAX_TOKENS) } : {}),
    ...(extraBody ? { extraBody } : {}),
  };
  const parsed = LlmConfig.safeParse(input);
  if (!parsed.success) {
    const flag: Record<string, string> = {
      baseURL: "--base-url",
      model: "--model",
      apiKeyEnv: "--api-key-env",
      temperature: "--temperature",
      maxTokens: "--max-tokens",
      extraBody: "--llm-extra",
    };
    const i = parsed.error.issues[0]!;
    const key = String(i.path[0] ?? "");
    throw new UsageError(
      `${flag[key] ?? key} ${JSON.stringify((input as Record<string, unknown>)[key])}: ${i.message}`,
    );
  }
  if (o.apiKeyEnv && !process.env[o.apiKeyEnv])
    throw new UsageError(
      `--api-key-env ${o.apiKeyEnv}: that environment variable is not set; export it or drop the flag`,
    );
  return parsed.data;
}

/**
 * The operator model and the (separate, optional) memory model, each recording every call in the
 * workspace's llm_calls table, as the library path does.
 */
export function modelsFromFlags(o: LlmFlags, ws: Workspace): { model: LanguageModel; memoryModel?: LanguageModel } {
  const model = recordingModel(createOpenAIModel(llmConfigFromFlags(o)), ws, { purpose: "operator" });
  const memoryModel = o.memoryModel
    ? recordingModel(
        createOpenAIModel({ ...llmConfigFromFlags(o, o.memoryModel, o.memoryBaseUrl ?? o.baseUrl), temperature: 0 }),
        ws,
        { purpose: "memory" },
      )
    : undefined;
  return { model, memoryModel };
}
