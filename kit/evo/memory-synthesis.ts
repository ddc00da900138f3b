import type { LanguageModel } from "../llm/spec.js";
import type { Workspace } from "../store/index.js";
import type { ChatMessage } from "../llm/spec.js";
import { cardSummary } from "./experience-card.js";
import { readCachedSummaries, readMemoryCards, writeSummary, type CardMemoryRow } from "./memory-store.js";

/**
 * The memory model's prompt for one node: its card and plan next to its parent's (each parent's, for a
 * Crossover), asking what changed against the parent and whether it helped; a Draft has no parent to
 * compare with.
 */
export function memoryPrompt(node: CardMemoryRow, parents: readonly CardMemoryRow[]): ChatMessage[] {
  const card = (c: CardMemoryRow) =>
    `${cardSummary({ ...c, parents: c.parents ?? [], plan: c.plan ?? "" })}\nPlan:\n${c.plan ?? ""}`;
  const vs = parents.length
    ? parents
        .map((p, i) => `Parent${parents.length > 1 ? ` ${String.fromCharCode(65 + i)}` : ""}: ${card(p)}`)
        .join("\n\n")
    : "Parent: none (a fresh draft).";
  return [
    {
      role: "system",
      content:
        "Summarise one node of an ML-engineering search in at most three sentences, comparing it " +
        "with its parent: what it changed, whether that helped (its outcome against the parent's), " +
        "what to keep or avoid.",
    },
    { role: "user", content: `Node: ${card(node)}\n\n${vs}` },
  ];
}

/**
 * Operator-triggered memory synthesis (docs/paper-map.md: Cards and memory): summaries only for the nodes an operator
 * selected. Without a model: the deterministic card summary. With one: a cached LLM summary per
 * node (memory_cache keyed by run, node and model; also stored as the card's rich_summary), so a
 * node is summarised at most once whichever operator asks again. The model's prompt (`memoryPrompt`)
 * compares the node with its parent(s): what changed and whether it helped.
 */
export async function synthesizeMemory(
  ws: Workspace,
  runId: string,
  nodeIds: readonly string[],
  opts: { model?: LanguageModel; operator?: string } = {},
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (nodeIds.length === 0) return out;
  const cards = await readMemoryCards(ws, runId, nodeIds);
  const model = opts.model;
  if (!model) {
    for (const c of cards) out.set(c.node_id, cardSummary({ ...c, parents: c.parents ?? [], plan: c.plan ?? "" }));
    return out;
  }
  // One query for every cached summary, then the model only for the misses.
  const keyOf = (nodeId: string) => `${runId}/${nodeId}/${model.provider}:${model.modelId}`;
  const hits = await readCachedSummaries(
    ws,
    cards.map((c) => keyOf(c.node_id)),
  );
  // The parents' cards, for the comparison (one query for every miss).
  const misses = cards.filter((c) => !hits.has(c.node_id));
  const parentIds = [...new Set(misses.flatMap((c) => c.parents ?? []))];
  const parentCards = new Map((await readMemoryCards(ws, runId, parentIds)).map((p) => [p.node_id, p]));
  for (const c of cards) {
    const hit = hits.get(c.node_id);
    if (hit !== undefined) {
      out.set(c.node_id, hit);
      continue;
    }
    const parents = (c.parents ?? []).map((p) => parentCards.get(p)).filter((p): p is CardMemoryRow => p !== undefined);
    const res = await model.chat({
      messages: memoryPrompt(c, parents),
      temperature: 0,
      maxTokens: 200,
      purpose: "memory",
      runId,
      nodeId: c.node_id,
      operator: opts.operator,
    });
    const summary = `${c.node_id}: ${res.text.trim()}`;
    await writeSummary(ws, {
      cacheKey: keyOf(c.node_id),
      runId,
      nodeId: c.node_id,
      operator: opts.operator ?? null,
      model: model.modelId,
      summary,
    });
    out.set(c.node_id, summary);
  }
  return out;
}
