import type { ChatMessage } from "../../llm/spec.js";

/**
 * Normalised messages for exact de-duplication: line endings → \n, trailing whitespace of every
 * line removed, leading/trailing blank lines removed; roles kept. Two examples are duplicates iff
 * their normalised message lists are equal.
 */
export function normaliseMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => ({
    role: m.role,
    content: m.content
      .replace(/\r\n?/g, "\n")
      .split("\n")
      .map((l) => l.replace(/[ \t]+$/, ""))
      .join("\n")
      .replace(/^\n+|\n+$/g, ""),
  }));
}

/** The de-duplication key of a message list. */
export const messagesKey = (messages: readonly ChatMessage[]): string =>
  JSON.stringify(normaliseMessages(messages).map((m) => [m.role, m.content]));

/** Keep the first example of each normalised message list (input order decides which). */
export function dedupExamples<E extends { readonly messages: readonly ChatMessage[] }>(
  examples: readonly E[],
): { kept: E[]; duplicates: number } {
  const seen = new Set<string>();
  const kept: E[] = [];
  for (const e of examples) {
    const k = messagesKey(e.messages);
    if (seen.has(k)) continue;
    seen.add(k);
    kept.push(e);
  }
  return { kept, duplicates: examples.length - kept.length };
}
