/**
 * NatureBench metrics (docs/paper-map.md: Evaluation rules). Per instance the relative gap to the state of the art
 *     g = dir · (agent − SOTA) / |SOTA|,   dir = +1 if higher is better, −1 if lower is better,
 * and a failed instance (no valid result) counts g = −1. A task's gap is the mean over its
 * instances; Match-SOTA = share of tasks with gap >= 0, Surpass-SOTA = share with gap > 0.1.
 */
export interface NatureInstance {
  readonly task_id: string;
  /** The agent's score; null/undefined/non-finite = failure. */
  readonly agent: number | null | undefined;
  readonly sota: number;
  readonly higher_is_better: boolean;
}

export const SURPASS_MARGIN = 0.1;

/** g for one instance; throws when SOTA is 0 (the relative gap is undefined). */
export function instanceGap(agent: number | null | undefined, sota: number, higherIsBetter: boolean): number {
  if (agent === null || agent === undefined || !Number.isFinite(agent)) return -1;
  if (sota === 0 || !Number.isFinite(sota))
    throw new RangeError(`instanceGap: SOTA must be a finite non-zero number, got ${sota}`);
  return ((higherIsBetter ? 1 : -1) * (agent - sota)) / Math.abs(sota);
}

export interface NatureTaskGap {
  readonly task_id: string;
  readonly instances: number;
  readonly gap: number;
  readonly match_sota: boolean;
  readonly surpass_sota: boolean;
}

export interface NatureSummary {
  readonly tasks: readonly NatureTaskGap[];
  readonly match_sota_rate: number;
  readonly surpass_sota_rate: number;
  readonly mean_gap: number;
}

/** Aggregate instances per task (mean g), then Match-/Surpass-SOTA over tasks. */
export function natureBench(instances: readonly NatureInstance[]): NatureSummary {
  const byTask = new Map<string, number[]>();
  for (const i of instances) {
    const g = instanceGap(i.agent, i.sota, i.higher_is_better);
    byTask.set(i.task_id, [...(byTask.get(i.task_id) ?? []), g]);
  }
  const tasks = [...byTask.entries()].map(([task_id, gs]) => {
    const gap = gs.reduce((a, b) => a + b, 0) / gs.length;
    return { task_id, instances: gs.length, gap, match_sota: gap >= 0, surpass_sota: gap > SURPASS_MARGIN };
  });
  const n = tasks.length;
  return {
    tasks,
    match_sota_rate: n ? tasks.filter((t) => t.match_sota).length / n : 0,
    surpass_sota_rate: n ? tasks.filter((t) => t.surpass_sota).length / n : 0,
    mean_gap: n ? tasks.reduce((a, t) => a + t.gap, 0) / n : 0,
  };
}
