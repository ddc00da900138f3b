import type { Workspace } from "../../store/index.js";

/**
 * Every consumed rollout of an RL run as one row for an LLM RL trainer (docs/paper-map.md: RL mechanisms):
 * task_id, operator, messages (the prompt as the LLM policy renders it, a JSON list of
 * {role, content}), completion (the program), reward, advantage, grpo_advantage, group_id, step,
 * old_log_prob (the grammar policy's; an LLM trainer recomputes its own), status, test_score, hack_check.
 * Exported as the researcher's SQL: `ws.query(ROLLOUT_EXPORT_SQL, { run: id })` in a notebook.
 */
export const ROLLOUT_EXPORT_SQL = `
  SELECT r.task_id, r.operator, g.messages, r.code AS completion, r.reward, r.advantage, r.grpo_advantage,
         r.group_id, g.consumed_step AS step, r.idx, r.old_log_prob, r.status, r.test_score, r.hack_check
  FROM rl_rollouts r JOIN rl_groups g USING (run_id, group_id)
  WHERE r.run_id = $run ORDER BY g.consumed_step, r.group_id, r.idx`;

/** Every RL run id of the workspace, oldest first. */
export async function rlRunIds(ws: Workspace): Promise<string[]> {
  return (await ws.query<{ run_id: string }>("SELECT run_id FROM rl_runs ORDER BY started_at")).map((r) => r.run_id);
}

/** Writes run `runId`'s rollouts (ROLLOUT_EXPORT_SQL) to the absolute path `out`; returns the row count. */
export async function copyRollouts(
  ws: Workspace,
  runId: string,
  out: string,
  format: "parquet" | "json",
): Promise<number> {
  // COPY takes no parameters: the run id and the path are quoted as SQL string literals.
  const literal = `'${runId.replaceAll("'", "''")}'`;
  const sql = ROLLOUT_EXPORT_SQL.replace("$run", literal);
  await ws.queryColumns(`COPY (${sql}) TO '${out.replaceAll("'", "''")}' (FORMAT ${format})`);
  const [{ n }] = (await ws.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (${sql})`)) as [{ n: number }];
  return n;
}
