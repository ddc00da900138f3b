import type { Workspace } from "../store/index.js";

/** The card columns the memory model compares (cards table). */
export interface CardMemoryRow {
  node_id: string;
  operator: string;
  method_family: string;
  plan: string;
  analysis: string;
  parents: string[];
}

/** A SQL list of quoted ids (the caller guarantees at least one). */
const quotedList = (ids: readonly string[]) => ids.map((i) => `'${i.replaceAll("'", "''")}'`).join(",");

/** The cards of `nodeIds` in `runId`, by node id; [] for no ids. */
export async function readMemoryCards(
  ws: Workspace,
  runId: string,
  nodeIds: readonly string[],
): Promise<CardMemoryRow[]> {
  if (nodeIds.length === 0) return [];
  return ws.query<CardMemoryRow>(
    `SELECT node_id, operator, method_family, plan, analysis, parents FROM cards
     WHERE run_id = $runId AND node_id IN (${quotedList(nodeIds)}) ORDER BY node_id`,
    { runId },
  );
}

/** Cached memory summaries by node id, for the given cache keys (one query; none for no keys). */
export async function readCachedSummaries(ws: Workspace, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const hits = await ws.query<{ node_id: string; summary: string }>(
    `SELECT node_id, summary FROM memory_cache WHERE cache_key IN (${quotedList(keys)})`,
  );
  return new Map(hits.map((h) => [h.node_id, h.summary]));
}

/** Stores a node's memory summary: a memory_cache row under `cacheKey`, and the card's rich_summary. */
export async function writeSummary(
  ws: Workspace,
  s: { cacheKey: string; runId: string; nodeId: string; operator: string | null; model: string; summary: string },
): Promise<void> {
  await ws.append("memory_cache", [
    {
      cache_key: s.cacheKey,
      run_id: s.runId,
      node_id: s.nodeId,
      operator: s.operator,
      model: s.model,
      summary: s.summary,
    },
  ]);
  await ws.exec("UPDATE cards SET rich_summary = $summary WHERE run_id = $runId AND node_id = $nodeId", {
    summary: s.summary,
    runId: s.runId,
    nodeId: s.nodeId,
  });
}
