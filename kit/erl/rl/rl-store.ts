import type { Workspace } from "../../store/index.js";
import { ParentStore } from "./parent-store.js";
import type { GroupResult } from "./rollout-group.js";
import type { RlStepMetrics, ScoredGroup } from "./rl-step.js";
import type { GspoSample } from "./gspo-update.js";

/** rl_* tables: what trainRL writes per step and a resume reads back (rl_runs: kit/store's run lifecycle). */

const groupRow = (runId: string, g: GroupResult, t0: number, extra: Record<string, unknown>) => ({
  run_id: runId,
  group_id: g.groupId,
  task_id: g.task.meta.id,
  operator: g.operator,
  parent_ids: JSON.stringify(g.parents.map((p) => p.nodeId)),
  policy_version: g.version,
  messages: JSON.stringify(g.messages),
  started_s: (g.startedMs - t0) / 1000,
  ended_s: (g.endedMs - t0) / 1000,
  ...extra,
});

/** One step, atomically: its consumed and dropped groups, their rollouts, the step row and the parent store. */
export async function writeStep(
  ws: Workspace,
  runId: string,
  t0: number,
  m: RlStepMetrics,
  checkpoint: string,
  scored: readonly ScoredGroup[],
  dropped: readonly GroupResult[],
  store: ParentStore,
): Promise<void> {
  await ws.transaction(async () => {
    await ws.append("rl_groups", [
      ...scored.map(({ group: g, scores: s }) =>
        groupRow(runId, g, t0, {
          consumed_step: m.step,
          status: "consumed",
          best_bound: s.best,
          worst_bound: s.worst,
          beta: s.beta,
        }),
      ),
      ...dropped.map((g) => groupRow(runId, g, t0, { status: "dropped" })),
    ]);
    await ws.append(
      "rl_rollouts",
      scored.flatMap(({ group: g, scores: s }) =>
        g.rollouts.map((r, i) => ({
          run_id: runId,
          group_id: g.groupId,
          idx: r.idx,
          task_id: g.task.meta.id,
          operator: g.operator,
          code: r.code,
          choices: JSON.stringify(r.choices),
          old_log_prob: r.oldLogProb,
          status: r.record?.status ?? "not_executed",
          valid_score: r.record?.validScore ?? null,
          test_score: r.record?.testScore ?? null,
          gap: s.gap[i],
          gap_factor: s.gapFactor[i],
          reward: s.rewards[i],
          advantage: s.advantages[i],
          grpo_advantage: s.grpoAdvantages[i],
          hack_check: r.hack,
          hack_reason: r.hackReason,
          execution_id: r.record?.executionId ?? null,
          wall_s: r.record?.wallS ?? null,
        })),
      ),
    );
    await ws.append("rl_steps", [
      {
        run_id: runId,
        step: m.step,
        checkpoint,
        groups: m.groups,
        dropped: m.dropped,
        mean_reward: m.meanReward,
        best_reward: m.bestReward,
        best_advantage: m.bestAdvantage,
        beta: m.beta,
        valid_rate: m.validRate,
        hack_flags: m.hackFlags,
        wall_s: m.wallS,
        metrics: JSON.stringify({ gspo: m.gspo, perTask: m.perTask, meanLag: m.meanLag, parentCopies: m.parentCopies }),
      },
    ]);
    await ws.exec("DELETE FROM rl_parent_states WHERE run_id = $r", { r: runId });
    await ws.append("rl_parent_states", store.toRows(runId));
  });
}

export interface ResumeState {
  readonly step: number;
  readonly checkpoint: string | null;
  readonly store: ParentStore;
  /** Signed graded scores of the consumed rollouts per task (hack-flagged ones excluded). */
  readonly history: Map<string, number[]>;
  readonly perTask: Map<string, number>;
  readonly groupsWritten: number;
}

export async function readResumeState(
  ws: Workspace,
  runId: string,
  higherIsBetter: (taskId: string) => boolean,
  keep: number,
): Promise<ResumeState> {
  const [last] = await ws.query<{ step: number; checkpoint: string }>(
    "SELECT step, checkpoint FROM rl_steps WHERE run_id = $r ORDER BY step DESC LIMIT 1",
    { r: runId },
  );
  // A state born in this run gets back its rollout's graded test score (flagged: none) for the parent bonus.
  const store = ParentStore.fromRows(
    (await ws.query(
      `SELECT p.*, CASE WHEN r.hack_check IS NULL THEN r.test_score END AS test_score
       FROM rl_parent_states p LEFT JOIN rl_rollouts r
         ON r.run_id = p.run_id AND p.state_id = r.group_id || '-' || CAST(r.idx AS VARCHAR)
       WHERE p.run_id = $r ORDER BY p.task_id, p.state_id`,
      { r: runId },
    )) as never,
    keep,
  );
  const history = new Map<string, number[]>();
  const rows = await ws.query<{ task_id: string; test_score: number }>(
    `SELECT r.task_id, r.test_score FROM rl_rollouts r JOIN rl_groups g USING (run_id, group_id)
     WHERE r.run_id = $r AND r.hack_check IS NULL AND r.test_score IS NOT NULL AND isfinite(r.test_score)
     ORDER BY g.consumed_step, r.group_id, r.idx`,
    { r: runId },
  );
  for (const x of rows)
    history.set(x.task_id, [
      ...(history.get(x.task_id) ?? []),
      higherIsBetter(x.task_id) ? x.test_score : -x.test_score,
    ]);
  const counts = await ws.query<{ task_id: string; n: number }>(
    "SELECT task_id, count(*)::INTEGER AS n FROM rl_groups WHERE run_id = $r AND status = 'consumed' GROUP BY task_id",
    { r: runId },
  );
  const [{ n }] = (await ws.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM rl_groups WHERE run_id = $r", {
    r: runId,
  })) as [{ n: number }];
  return {
    step: last?.step ?? 0,
    checkpoint: last?.checkpoint ?? null,
    store,
    history,
    perTask: new Map(counts.map((c) => [c.task_id, c.n])),
    groupsWritten: n,
  };
}

/** One consumed step as stored: the GSPO samples it trained on and the checkpoint it wrote. */
export interface StoredStepBatch {
  readonly step: number;
  readonly checkpoint: string;
  readonly samples: readonly GspoSample[];
}

/** Every consumed step of a run, in order, to replay its updates at other settings (bench/erl/step-size.ts). */
export async function storedStepBatches(ws: Workspace, runId: string): Promise<StoredStepBatch[]> {
  const rows = await ws.query<{
    step: number;
    checkpoint: string;
    choices: string;
    old_log_prob: number;
    advantage: number;
  }>(
    `SELECT g.consumed_step AS step, s.checkpoint, r.choices, r.old_log_prob, r.advantage
     FROM rl_rollouts r JOIN rl_groups g USING (run_id, group_id)
       JOIN rl_steps s ON s.run_id = r.run_id AND s.step = g.consumed_step
     WHERE r.run_id = $r AND g.status = 'consumed' ORDER BY g.consumed_step, r.group_id, r.idx`,
    { r: runId },
  );
  const out: { step: number; checkpoint: string; samples: GspoSample[] }[] = [];
  for (const x of rows) {
    if (out.at(-1)?.step !== Number(x.step)) out.push({ step: Number(x.step), checkpoint: x.checkpoint, samples: [] });
    out.at(-1)!.samples.push({ choices: JSON.parse(x.choices), oldLogProb: x.old_log_prob, advantage: x.advantage });
  }
  return out;
}
