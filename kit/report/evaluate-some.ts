// kit/eval's evaluate() for some runs of a workspace (a report of one run, `openmle evaluate --run`): each run graded
// as evaluate() grades it, the averages over those runs only.
import {
  evaluate,
  evaluateRuns,
  leaderboardsFor,
  type EvaluateOptions,
  type Evaluation,
  type GradedRun,
} from "../eval/index.js";
import type { Workspace } from "../store/index.js";

/**
 * The evaluation of the runs `runIds` (all of the workspace's finished runs when undefined). Steps:
 * 1. evaluate() the workspace: grading is per run, so each run gets the grade it has there (the MLE-bench Lite
 *    leaderboard, else the kit's corpus leaderboard built on the task's current package; the weak-reference flag
 *    from the task's stored metric);
 * 2. keep the runs asked for and average them again (evaluateRuns) on the leaderboards that graded them, which
 *    evaluate() has already checked, with their weak-reference flags as step 1 set them;
 * 3. keep the warnings that name one of their tasks.
 * TODO(kit/eval): a `runIds` option of evaluate() would do this in one pass.
 */
export async function evaluateSome(
  ws: Workspace,
  runIds: readonly string[] | undefined,
  opts: EvaluateOptions = {},
): Promise<Evaluation> {
  const full = await evaluate(ws, opts); // 1.
  if (runIds === undefined) return full;
  const keep = new Set(runIds);
  const mine: GradedRun[] = full.runs.filter((r) => keep.has(r.run_id)); // 2.
  const graded = [...new Set(mine.filter((r) => r.report).map((r) => r.task_id))];
  const leaderboards =
    opts.leaderboards ?? leaderboardsFor(graded, opts.corpusLeaderboardsDir ? { dir: opts.corpusLeaderboardsDir } : {});
  const ev = evaluateRuns(mine, { ...opts, leaderboards });
  const weak = new Map(mine.map((r) => [r.task_id, r.weak_reference]));
  const tasks = [...weak.keys()];
  const warnings = (full.warnings ?? []).filter((w) => tasks.some((id) => ` ${w} `.includes(` ${id} `))); // 3.
  return {
    runs: ev.runs.map((r) => ({ ...r, weak_reference: weak.get(r.task_id) ?? null })),
    tasks: ev.tasks.map((t) => ({ ...t, weak_reference: weak.get(t.task_id) ?? null })),
    groups: ev.groups,
    ...(warnings.length ? { warnings } : {}),
  };
}
