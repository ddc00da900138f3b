import type { TaskScale } from "./fixed-scale.js";
import { readTaskScales } from "./task-scale-store.js";
import type { Workspace } from "../../store/index.js";

/** What one stored trainRL run measured, for tables and figures (kit/reproduce, notebooks). */
export interface StoredRlRun {
  readonly runId: string;
  /** rl_runs.status: running | finished | failed | killed. */
  readonly status: string;
  readonly steps: readonly {
    readonly step: number;
    readonly meanReward: number;
    readonly bestReward: number;
    /** Mean over the step's groups of the entropic advantage of each group's best candidate. */
    readonly bestAdvantage: number;
    readonly wallS: number;
  }[];
  /** Per consumed group, the best candidate's (highest reward, then lowest index) advantage under both rules. */
  readonly bestCandidates: readonly { readonly entropic: number; readonly groupNormalised: number }[];
  /** Consumed groups per task. */
  readonly groupsPerTask: Readonly<Record<string, number>>;
  /** Per consumed group, its step, task and graded test scores (hack-flagged rollouts left out), by group id. */
  readonly groups: readonly { readonly step: number; readonly taskId: string; readonly testScores: number[] }[];
  /** The static bounds the run used per task (rl_task_bounds; none for a run made before schema v12). */
  readonly scales: readonly TaskScale[];
}

/** The run, or null when the workspace has no trainRL run of that id. */
export async function readRlRun(ws: Workspace, runId: string): Promise<StoredRlRun | null> {
  const [run] = await ws.query<{ status: string }>("SELECT status FROM rl_runs WHERE run_id = $r", { r: runId });
  if (!run) return null;
  const steps = await ws.query<{
    step: number;
    mean_reward: number;
    best_reward: number;
    best_advantage: number;
    wall_s: number;
  }>("SELECT step, mean_reward, best_reward, best_advantage, wall_s FROM rl_steps WHERE run_id = $r ORDER BY step", {
    r: runId,
  });
  const best = await ws.query<{ advantage: number; grpo_advantage: number }>(
    `SELECT advantage, grpo_advantage FROM (
       SELECT r.group_id, r.advantage, r.grpo_advantage,
              row_number() OVER (PARTITION BY r.group_id ORDER BY r.reward DESC, r.idx) AS k
       FROM rl_rollouts r JOIN rl_groups g USING (run_id, group_id)
       WHERE r.run_id = $r AND g.status = 'consumed')
     WHERE k = 1 ORDER BY group_id`,
    { r: runId },
  );
  const tasks = await ws.query<{ task_id: string; n: number }>(
    `SELECT task_id, count(*)::INTEGER AS n FROM rl_groups
     WHERE run_id = $r AND status = 'consumed' GROUP BY 1 ORDER BY 1`,
    { r: runId },
  );
  const groups = await ws.query<{ step: number; task_id: string; scores: number[] | null }>(
    `SELECT g.consumed_step AS step, g.task_id, g.group_id,
            list(r.test_score ORDER BY r.idx) FILTER (
              WHERE r.hack_check IS NULL AND r.test_score IS NOT NULL AND isfinite(r.test_score)) AS scores
     FROM rl_groups g LEFT JOIN rl_rollouts r USING (run_id, group_id)
     WHERE g.run_id = $r AND g.status = 'consumed' GROUP BY 1, 2, 3 ORDER BY g.group_id`,
    { r: runId },
  );
  return {
    runId,
    status: run.status,
    steps: steps.map((s) => ({
      step: s.step,
      meanReward: s.mean_reward,
      bestReward: s.best_reward,
      bestAdvantage: s.best_advantage,
      wallS: s.wall_s,
    })),
    bestCandidates: best.map((b) => ({ entropic: b.advantage, groupNormalised: b.grpo_advantage })),
    groupsPerTask: Object.fromEntries(tasks.map((t) => [t.task_id, t.n])),
    groups: groups.map((g) => ({ step: g.step, taskId: g.task_id, testScores: [...(g.scores ?? [])].map(Number) })),
    scales: await readTaskScales(ws, runId),
  };
}
