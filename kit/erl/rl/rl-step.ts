import type { NodeView } from "../../policy/types.js";
import { METRIC_RANGES } from "./gap-penalty.js";
import { groupRewards, type GroupRewards } from "./group-rewards.js";
import { gspoUpdate, type GspoSample, type GspoStats } from "./gspo-update.js";
import { staticBounds } from "./leaderboard-bounds.js";
import type { ParentStore } from "./parent-store.js";
import type { RlConfig } from "./rl-config.js";
import type { GroupResult } from "./rollout-group.js";
import type { GrammarParams } from "../../policy/grammar/index.js";
import type { TaskPackage } from "../../gym/types.js";

/** Per-task reward settings, fixed for a run. */
export interface TaskRewardInfo {
  readonly higherIsBetter: boolean;
  readonly metricRange: number | null;
  readonly leaderboardRange: number | null;
  readonly staticBest?: number;
  readonly staticWorst?: number;
}

/** Direction, ranges and static bounds (max(theoretical best, leaderboard best); leaderboard worst). */
export function taskRewardInfo(task: TaskPackage): TaskRewardInfo {
  const sb = staticBounds(task);
  return {
    higherIsBetter: task.meta.higherIsBetter,
    metricRange: METRIC_RANGES[task.meta.metricKind ?? task.meta.metric] ?? null,
    leaderboardRange: sb.range,
    ...(sb.staticBest !== undefined ? { staticBest: sb.staticBest } : {}),
    ...(sb.staticWorst !== undefined ? { staticWorst: sb.staticWorst } : {}),
  };
}

/** Metrics of one training step (stored in rl_steps, shown as progress). */
export interface RlStepMetrics {
  readonly step: number;
  readonly groups: number;
  readonly dropped: number;
  readonly meanReward: number;
  readonly bestReward: number;
  /** Mean over groups of the advantage given to the group's best candidate. */
  readonly bestAdvantage: number;
  readonly beta: number;
  readonly validRate: number;
  readonly hackFlags: number;
  /** Rollouts whose code equals a parent's (reward 0). */
  readonly parentCopies: number;
  readonly wallS: number;
  /** Mean policy lag (trainer version − group version) of the consumed groups. */
  readonly meanLag: number;
  readonly gspo: GspoStats;
  readonly perTask: Record<string, number>;
}

export interface ScoredGroup {
  readonly group: GroupResult;
  readonly scores: GroupRewards;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

/**
 * One update from a batch of completed groups, in order:
 * 1. each group's rewards and advantages against its task's history (then the history grows);
 * 2. the parent store learns the children's rewards and keeps the group's programs;
 * 3. GSPO on every rollout with its old log-prob and advantage;
 * 4. the step's metrics.
 */
export function consumeBatch(
  batch: readonly GroupResult[],
  params: GrammarParams,
  ctx: {
    history: Map<string, number[]>;
    store: ParentStore;
    info: ReadonlyMap<string, TaskRewardInfo>;
    cfg: RlConfig;
    perTask: Map<string, number>;
  },
): { params: GrammarParams; scored: ScoredGroup[]; gspo: GspoStats } {
  const scored: ScoredGroup[] = [];
  const samples: GspoSample[] = [];
  for (const g of batch) {
    const id = g.task.meta.id;
    const info = ctx.info.get(id)!;
    const hist = ctx.history.get(id) ?? [];
    const bounds = {
      ...ctx.cfg.bounds,
      ...(info.staticBest !== undefined ? { staticBest: info.staticBest } : {}),
      ...(info.staticWorst !== undefined ? { staticWorst: info.staticWorst } : {}),
    };
    const scores = groupRewards(
      g.rollouts.map((r) => ({
        testScore: r.record?.testScore ?? null,
        validScore: r.record?.validScore ?? null,
        hack: r.hack,
        code: r.code,
      })),
      hist,
      {
        higherIsBetter: info.higherIsBetter,
        metricRange: info.metricRange,
        leaderboardRange: info.leaderboardRange,
        bounds,
        gap: ctx.cfg.gap,
        parentBonus: ctx.cfg.parentBonus,
        hackReward: ctx.cfg.hackReward,
      },
      g.parents.map((p, i) => ({ code: p.code, testScore: g.parentTestScores[i] ?? null })),
    );
    ctx.history.set(id, [...hist, ...scores.signed.filter(Number.isFinite)]);
    ctx.store.recordChildren(
      id,
      g.parents.map((p) => p.nodeId),
      scores.rewards,
    );
    ctx.store.add(
      id,
      g.rollouts.map((r, i) => ({
        id: `${g.groupId}-${r.idx}`,
        reward: scores.rewards[i]!,
        testScore: r.hack ? null : (r.record?.testScore ?? null),
        view: rolloutView(g, i),
      })),
    );
    ctx.perTask.set(id, (ctx.perTask.get(id) ?? 0) + 1);
    g.rollouts.forEach((r, i) =>
      samples.push({ choices: r.choices, oldLogProb: r.oldLogProb, advantage: scores.advantages[i]! }),
    );
    scored.push({ group: g, scores });
  }
  const { params: next, stats } = gspoUpdate(params, samples, ctx.cfg.gspo);
  return { params: next, scored, gspo: stats };
}

export function stepMetrics(
  step: number,
  version: number,
  scored: readonly ScoredGroup[],
  dropped: number,
  gspo: GspoStats,
  wallS: number,
  perTask: Map<string, number>,
): RlStepMetrics {
  const rewards = scored.flatMap((s) => s.scores.rewards);
  const rollouts = scored.flatMap((s) => s.group.rollouts);
  const bestAdv = scored.map((s) => {
    const r = s.scores.rewards;
    return s.scores.advantages[r.indexOf(Math.max(...r))] ?? 0;
  });
  return {
    step,
    groups: scored.length,
    dropped,
    meanReward: mean(rewards),
    bestReward: rewards.length ? Math.max(...rewards) : 0,
    bestAdvantage: mean(bestAdv),
    beta: mean(scored.map((s) => s.scores.beta)),
    validRate: mean(rollouts.map((r) => (r.record?.status === "success" && !r.hack ? 1 : 0))),
    hackFlags: rollouts.filter((r) => r.hack).length,
    parentCopies: scored.reduce((n, s) => n + s.scores.copiesParent.filter(Boolean).length, 0),
    wallS,
    meanLag: mean(scored.map((s) => version - s.group.version)),
    gspo,
    perTask: Object.fromEntries(perTask),
  };
}

/** The NodeView of a rollout, as later operators see it when it is drawn as a parent. */
export function rolloutView(g: GroupResult, i: number): NodeView {
  const r = g.rollouts[i]!;
  const rec = r.record;
  return {
    nodeId: `${g.groupId}-${r.idx}`,
    operator: g.operator,
    code: r.code,
    plan: r.plan,
    spec: r.spec,
    status: rec?.status ?? "runtime_error",
    validScore: rec?.validScore ?? null,
    errorSignature: rec ? rec.errorSignature : "reward_hack",
    traceback: rec?.traceback ?? null,
    stdoutTail: rec?.stdoutTail ?? "",
  };
}
