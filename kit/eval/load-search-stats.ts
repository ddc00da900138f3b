import type { Workspace } from "../store/index.js";
import { readNodePrompts, readOperatorCalls, readRunTasks, readSearchNodes, type SearchNodeRow } from "./eval-store.js";
import { humanRank } from "./human-rank.js";
import { isLowerBetter } from "./grade-score.js";
import type { Leaderboard } from "./leaderboard.js";
import { liteLeaderboardsFor } from "./load-run-outcomes.js";
import { searchEfficiency, type EffCall, type SearchEfficiency } from "./search-efficiency.js";

export interface SearchRows {
  readonly nodes: SearchNodeRow[];
  readonly calls: EffCall[];
  /** Each node's rendered prompt size (cards.prompt_chars) as a call row: the grammar policy makes no LLM calls. */
  readonly prompts: EffCall[];
  readonly higherIsBetter: Map<string, boolean>;
}

/** Nodes (with harness and parents) and operator LLM calls of the runs in a workspace (optionally some runs only). */
export async function loadSearchRows(ws: Workspace, runIds?: readonly string[]): Promise<SearchRows> {
  const nodes = await readSearchNodes(ws, runIds);
  const calls = await readOperatorCalls(ws, runIds);
  const prompts = await readNodePrompts(ws, runIds);
  const dirs = await readRunTasks(ws);
  return { nodes, calls, prompts, higherIsBetter: new Map(dirs.map((d) => [d.run_id, d.higher_is_better ?? true])) };
}

/**
 * searchEfficiency over a workspace's runs. Runs of tasks with a leaderboard (`leaderboards`, default the
 * bundled MLE-bench Lite ones) get their late Improve/Crossover share in validation Human-Rank units.
 */
export async function loadSearchEfficiency(
  ws: Workspace,
  runIds?: readonly string[],
  leaderboards?: ReadonlyMap<string, Leaderboard>,
): Promise<SearchEfficiency> {
  const rows = await loadSearchRows(ws, runIds);
  const tasks = new Map((await readRunTasks(ws)).map((r) => [r.run_id, r.task_id]));
  const lbs = leaderboards ?? liteLeaderboardsFor(new Set(tasks.values()));
  const hrOf = (runId: string) => {
    const lb = lbs.get(tasks.get(runId) ?? "");
    return lb ? (score: number) => humanRank(score, lb.scores, isLowerBetter(lb.scores)) : null;
  };
  return searchEfficiency(rows.nodes, rows.calls, (id) => rows.higherIsBetter.get(id) ?? true, hrOf);
}
