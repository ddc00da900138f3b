import type { Command } from "commander";
import { openWorkspace } from "../store/index.js";
import { formatNumber, formatTable } from "./format.js";
import { output } from "./run-cli.js";

/** One row of `openmle runs list` (also its --json shape). */
export interface RunListRow {
  readonly runId: string;
  readonly taskId: string;
  readonly harness: string;
  readonly policy: string;
  readonly seed: number;
  readonly nodes: number;
  readonly validNodes: number;
  /** Best validation score in the metric's own direction; null when no node scored. */
  readonly best: number | null;
  readonly status: string;
  readonly startedAt: string | null;
}

/**
 * The runs of a workspace with their node counts and best validation score. The direction of "best"
 * comes from the task row evolve records (higher_is_better); a run of an unknown task counts higher as better.
 */
export async function listRuns(dir: string): Promise<RunListRow[]> {
  const ws = await openWorkspace(dir, { readOnly: true });
  try {
    const rows = await ws.query<{
      run_id: string; task_id: string; harness: string; policy: string; seed: number; status: string; started_at: string | null;
      nodes: number; valid_nodes: number; best_hi: number | null; best_lo: number | null; higher_is_better: boolean | null;
    }>(`
      SELECT r.run_id, r.task_id, r.harness, r.policy, r.seed, r.status, CAST(r.started_at AS VARCHAR) AS started_at,
             count(n.node_id) AS nodes, count(n.valid_score) FILTER (WHERE n.status = 'success') AS valid_nodes,
             max(n.valid_score) FILTER (WHERE n.status = 'success') AS best_hi,
             min(n.valid_score) FILTER (WHERE n.status = 'success') AS best_lo,
             any_value(t.higher_is_better) AS higher_is_better
      FROM runs r LEFT JOIN nodes n USING (run_id) LEFT JOIN tasks t ON t.task_id = r.task_id
      GROUP BY r.run_id, r.task_id, r.harness, r.policy, r.seed, r.status, r.started_at ORDER BY r.started_at, r.run_id`);
    return rows.map((r) => ({
      runId: r.run_id, taskId: r.task_id, harness: r.harness, policy: r.policy, seed: Number(r.seed), nodes: Number(r.nodes),
      validNodes: Number(r.valid_nodes), best: r.higher_is_better === false ? r.best_lo : r.best_hi, status: r.status, startedAt: r.started_at,
    }));
  } finally {
    ws.close();
  }
}

export function registerRuns(program: Command): void {
  const runs = program.command("runs").description("List the search runs stored in a workspace");
  runs.command("list")
    .description("Runs with task, harness, policy, seed, nodes, best validation score and status")
    .requiredOption("--workspace <dir>", "workspace folder")
    .option("--json", "machine-readable output (camelCase keys)")
    .action(async (o: { workspace: string; json?: boolean }) => {
      const rows = await listRuns(o.workspace);
      output(!!o.json, rows, () => rows.length === 0 ? `no runs in ${o.workspace} (start one with: openmle evolve --workspace ${o.workspace} --task <id>)` : formatTable(rows.map((r) => ({
        run: r.runId, task: r.taskId, harness: r.harness, policy: r.policy, seed: r.seed,
        nodes: `${r.validNodes}/${r.nodes} valid`, best: formatNumber(r.best), status: r.status,
      }))));
    });
}
