// The rl experiments' fixed reward scale: one set of static bounds per task, shared by every arm, so a group-best
// reward means the same in every cell (under adaptive bounds it is ≈ 1 by construction; kit/erl/rl/fixed-scale.ts).
import { fixedScaleReward, type StoredRlRun, type TaskScale } from "../erl/index.js";

/**
 * The experiment's scale per task: the first stored scale (in cell order) with both bounds, from any cell (a run
 * that did not need a trivial baseline stored no W_static for a task without a leaderboard; the trivial baseline
 * is a constant prediction, so any run's score of it is the task's). A task no cell has bounds for is left out.
 */
export function experimentScales(runs: readonly StoredRlRun[]): Map<string, TaskScale> {
  const out = new Map<string, TaskScale>();
  for (const s of runs.flatMap((r) => r.scales))
    if (!out.has(s.taskId) && s.staticBest !== null && s.staticWorst !== null) out.set(s.taskId, s);
  return out;
}

/**
 * Per step of a run, the mean over its consumed groups of r_fixed (the group's best graded score on its task's
 * fixed scale; groups of tasks without one are left out); a step with none is left out.
 */
export function fixedGroupBest(
  run: StoredRlRun,
  scales: ReadonlyMap<string, TaskScale>,
): { readonly step: number; readonly value: number; readonly groups: number }[] {
  const by = new Map<number, number[]>();
  for (const g of run.groups) {
    const scale = scales.get(g.taskId);
    const r = scale ? fixedScaleReward(g.testScores, scale) : null;
    if (r !== null) by.set(g.step, [...(by.get(g.step) ?? []), r]);
  }
  return [...by.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([step, xs]) => ({ step, value: xs.reduce((s, x) => s + x, 0) / xs.length, groups: xs.length }));
}
