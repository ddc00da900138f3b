import type { Workspace } from "../store/index.js";
import { humanRank } from "./human-rank.js";
import { isLowerBetter } from "./grade-score.js";
import type { Leaderboard } from "./leaderboard.js";
import { liteLeaderboardsFor } from "./load-run-outcomes.js";
import { searchEfficiency, type EffCall, type EffNode, type SearchEfficiency } from "./search-efficiency.js";

export interface SearchRows {
  readonly nodes: (EffNode & { harness: string; parents: string[]; status: string | null; generation: number | null })[];
  readonly calls: EffCall[];
  readonly higherIsBetter: Map<string, boolean>;
}

/** Nodes (with harness and parents) and operator LLM calls of the runs in a workspace (optionally some runs only). */
export async function loadSearchRows(ws: Workspace, runIds?: readonly string[]): Promise<SearchRows> {
  const where = runIds ? `WHERE n.run_id IN (SELECT unnest($ids::VARCHAR[]))` : "";
  const params = runIds ? { ids: [...runIds] } : undefined;
  const nodes = await ws.query<SearchRows["nodes"][number]>(
    `SELECT n.run_id, n.node_id, n.step, n.generation, coalesce(n.operator, 'unknown') AS operator, n.valid_score, n.status,
            coalesce(n.parents, []) AS parents, coalesce(r.harness, 'unknown') AS harness
     FROM nodes n LEFT JOIN runs r USING (run_id) ${where} ORDER BY n.run_id, n.step, n.node_id`,
    params as never,
  );
  const calls = await ws.query<EffCall>(
    `SELECT run_id, operator, prompt_chars, prompt_tokens, completion_tokens FROM llm_calls n
     ${where ? `${where} AND` : "WHERE"} coalesce(purpose, 'operator') = 'operator'`,
    params as never,
  );
  const dirs = await ws.query<{ run_id: string; hib: boolean | null }>(
    "SELECT r.run_id, t.higher_is_better AS hib FROM runs r LEFT JOIN tasks t USING (task_id)",
  );
  return { nodes, calls, higherIsBetter: new Map(dirs.map((d) => [d.run_id, d.hib ?? true])) };
}

/**
 * searchEfficiency over a workspace's runs. Runs of tasks with a leaderboard (`leaderboards`, default the
 * bundled MLE-bench Lite ones) get their late Improve/Crossover share in validation Human-Rank units.
 */
export async function loadSearchEfficiency(ws: Workspace, runIds?: readonly string[], leaderboards?: ReadonlyMap<string, Leaderboard>): Promise<SearchEfficiency> {
  const rows = await loadSearchRows(ws, runIds);
  const tasks = new Map((await ws.query<{ run_id: string; task_id: string }>("SELECT run_id, task_id FROM runs")).map((r) => [r.run_id, r.task_id]));
  const lbs = leaderboards ?? liteLeaderboardsFor(new Set(tasks.values()));
  const hrOf = (runId: string) => {
    const lb = lbs.get(tasks.get(runId) ?? "");
    return lb ? (score: number) => humanRank(score, lb.scores, isLowerBetter(lb.scores)) : null;
  };
  return searchEfficiency(rows.nodes, rows.calls, (id) => rows.higherIsBetter.get(id) ?? true, hrOf);
}
