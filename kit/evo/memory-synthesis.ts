import type { LanguageModel } from "../llm/spec.js";
import type { Workspace } from "../store/index.js";
import { cardSummary } from "./experience-card.js";

/**
 * Operator-triggered memory synthesis (spec §4 point 3): summaries only for the nodes an operator
 * selected. Without a model: the deterministic card summary. With one: a cached LLM summary per
 * node (memory_cache keyed by run, node and model; also stored as the card's rich_summary), so a
 * node is summarised at most once whichever operator asks again.
 */
export async function synthesizeMemory(ws: Workspace, runId: string, nodeIds: readonly string[], opts: { model?: LanguageModel; operator?: string } = {}): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (nodeIds.length === 0) return out;
  type CardRow = { node_id: string; operator: string; method_family: string; plan: string; analysis: string; parents: string[] };
  const list = nodeIds.map((i) => `'${i.replaceAll("'", "''")}'`).join(",");
  const cards = await ws.query<CardRow>(
    `SELECT node_id, operator, method_family, plan, analysis, parents FROM cards WHERE run_id = $runId AND node_id IN (${list}) ORDER BY node_id`,
    { runId },
  );
  const model = opts.model;
  if (!model) {
    for (const c of cards) out.set(c.node_id, cardSummary({ ...c, parents: c.parents ?? [], plan: c.plan ?? "" }));
    return out;
  }
  // One query for every cached summary, then the model only for the misses.
  const keyOf = (nodeId: string) => `${runId}/${nodeId}/${model.provider}:${model.modelId}`;
  const keys = cards.map((c) => `'${keyOf(c.node_id).replaceAll("'", "''")}'`).join(",");
  const hits = new Map(
    (keys ? await ws.query<{ node_id: string; summary: string }>(`SELECT node_id, summary FROM memory_cache WHERE cache_key IN (${keys})`) : [])
      .map((h) => [h.node_id, h.summary]),
  );
  for (const c of cards) {
    const hit = hits.get(c.node_id);
    if (hit !== undefined) { out.set(c.node_id, hit); continue; }
    const base = cardSummary({ ...c, parents: c.parents ?? [], plan: c.plan ?? "" });
    const res = await model.chat({
      messages: [
        { role: "system", content: "Summarise one node of an ML-engineering search in at most three sentences: what it tried, what happened, what to keep or avoid." },
        { role: "user", content: `${base}\nPlan:\n${c.plan ?? ""}` },
      ],
      temperature: 0, maxTokens: 200, purpose: "memory", runId, nodeId: c.node_id, operator: opts.operator,
    });
    const summary = `${c.node_id}: ${res.text.trim()}`;
    await ws.append("memory_cache", [{ cache_key: keyOf(c.node_id), run_id: runId, node_id: c.node_id, operator: opts.operator ?? null, model: model.modelId, summary }]);
    await ws.exec("UPDATE cards SET rich_summary = $summary WHERE run_id = $runId AND node_id = $nodeId", { summary, runId, nodeId: c.node_id });
    out.set(c.node_id, summary);
  }
  return out;
}
