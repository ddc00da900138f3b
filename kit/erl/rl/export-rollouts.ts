import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Workspace } from "../../store/index.js";
import { ErlError } from "../errors.js";

/**
 * Every consumed rollout of an RL run as one row for an LLM RL trainer (spec §3.2 point 8):
 * task_id, operator, messages (the prompt as the LLM policy renders it, a JSON list of
 * {role, content}), completion (the program), reward, advantage, grpo_advantage, group_id, step,
 * old_log_prob (the grammar policy's; an LLM trainer recomputes its own), status, test_score, hack_check.
 */
export const ROLLOUT_EXPORT_SQL = `
  SELECT r.task_id, r.operator, g.messages, r.code AS completion, r.reward, r.advantage, r.grpo_advantage,
         r.group_id, g.consumed_step AS step, r.idx, r.old_log_prob, r.status, r.test_score, r.hack_check
  FROM rl_rollouts r JOIN rl_groups g USING (run_id, group_id)
  WHERE r.run_id = $run ORDER BY g.consumed_step, r.group_id, r.idx`;

/** Write the run's rollouts to `file`: Parquet when it ends in .parquet, JSON Lines when .jsonl. Returns the row count. */
export async function exportRollouts(ws: Workspace, runId: string, file: string): Promise<{ file: string; rows: number }> {
  const format = file.endsWith(".parquet") ? "parquet" : file.endsWith(".jsonl") ? "json" : null;
  if (!format) throw new ErlError(`--out ${file}: name the file *.parquet or *.jsonl`);
  const runs = await ws.query<{ run_id: string }>("SELECT run_id FROM rl_runs ORDER BY started_at");
  if (!runs.some((r) => r.run_id === runId)) {
    throw new ErlError(`no RL run "${runId}" in ${ws.dir}; ` + (runs.length ? `it has: ${runs.map((r) => r.run_id).join(", ")}` : "it has none (train with `openmle rl train`)"));
  }
  const out = resolve(file);
  mkdirSync(dirname(out), { recursive: true });
  const literal = `'${runId.replaceAll("'", "''")}'`;
  const sql = ROLLOUT_EXPORT_SQL.replace("$run", literal);
  await ws.queryColumns(`COPY (${sql}) TO '${out.replaceAll("'", "''")}' (FORMAT ${format})`);
  const [{ n }] = await ws.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (${sql})`) as [{ n: number }];
  return { file: out, rows: n };
}
