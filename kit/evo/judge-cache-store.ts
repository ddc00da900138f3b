import type { Workspace } from "../store/index.js";

/**
 * The judges' verdict cache in `memory_cache` (kit/erl's causal-inheritance judge keys it by model and
 * prompt hash), so a rerun asks the model only about segments it has not judged yet.
 */
export interface JudgeCacheEntry {
  readonly cacheKey: string;
  readonly runId: string | null;
  readonly nodeId: string | null;
  readonly operator: string;
  readonly model: string;
  /** The verdicts as JSON text. */
  readonly summary: string;
}

/** The cached summary under `cacheKey`, or null. */
export async function readJudgeCache(ws: Workspace, cacheKey: string): Promise<string | null> {
  const [hit] = await ws.query<{ summary: string }>("SELECT summary FROM memory_cache WHERE cache_key = $key", {
    key: cacheKey,
  });
  return hit ? hit.summary : null;
}

/** Stores one entry. */
export async function writeJudgeCache(ws: Workspace, e: JudgeCacheEntry): Promise<void> {
  await ws.append("memory_cache", [
    {
      cache_key: e.cacheKey,
      run_id: e.runId,
      node_id: e.nodeId,
      operator: e.operator,
      model: e.model,
      summary: e.summary,
    },
  ]);
}
