// kit/policy/llm: the LLM operator policy: typed prompts, one pure renderer, reply parsing.
export { createLlmPolicy, type LlmPolicy } from "./llm-policy.js";
export { LlmPolicyConfig, DEFAULT_PACKAGES, type LlmPolicyConfigInput } from "./llm-policy-config.js";
export {
  buildPrompt, operatorPromptChars, cutMiddle, keepEnd, type OperatorPrompt, type PromptNode, type ProgramContract,
} from "./operator-prompt.js";
export { renderPrompt, formatDuration } from "./render-prompt.js";
export { parseReply, type ParsedReply } from "./parse-reply.js";
export { dataOverview, profileLines, type OverviewOptions } from "./data-overview.js";
