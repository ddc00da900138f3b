// The power line's inputs from the workspace: the development suite's stored rows of the plan's level (experiment
// cells and the loop's held-out rows), each turned into the decision measure's per-draw value (power.ts does the
// arithmetic).
import { suiteTasks, taskDirections, type CorpusIndex } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { policyKey } from "./arm-policy.js";
import { drawValue, taskDiffs, type CellOutcome } from "./arm-measures.js";
import { readIndexOrNull } from "./resolve-plan.js";
import { parseResolvedPlan, type ResolvedArm, type ResolvedPlan } from "./experiment-plan.js";
import { devRows, readRegistration, type DevRow } from "./experiment-store.js";
import { powerEstimate, powerLine, type DevValue, type PowerEstimate } from "./power.js";
import { gradeOn, taskLeaderboards } from "./task-leaderboards.js";

/** How an arm is matched with dev rows: its policy, and at the search level its harness. */
const armKey = (arm: Pick<ResolvedArm, "policy" | "harness">) =>
  arm.harness ? `${policyKey(arm.policy)}+${arm.harness}` : policyKey(arm.policy);

/**
 * The power line of `plan` from the dev suite (suite:dev of the corpus index):
 *  1. the dev tasks' stored rows at the plan's level (devRows);
 *  2. each row's policy: an experiment cell's arm as its registration resolved it, a loop row's checkpoint name
 *     (at the search level with harness openmle: a loop's held-out searches are OpenMLE-Evo runs of the loop's
 *     steps and settings, close enough to estimate a spread; match the plan's steps to the loop's to keep it so);
 *  3. each row graded on its task's leaderboard, normalisable when its row set has a normalised score on the task;
 *  4. powerEstimate of the decision's measure and arms, put in words.
 */
export async function registrationPower(
  ws: Workspace,
  plan: ResolvedPlan,
  opts: { readonly readIndex?: () => Promise<CorpusIndex | null> } = {},
): Promise<{ readonly estimate: PowerEstimate; readonly line: string }> {
  const drawWord = plan.level.kind === "search" ? "seeds" : "draws";
  const done = (estimate: PowerEstimate) => ({ estimate, line: powerLine(estimate, drawWord) });
  const index = await (opts.readIndex ?? readIndexOrNull)();
  const devIds = index ? suiteTasks(index, "dev").map((t) => t.id) : [];
  if (!devIds.length)
    return done({
      kind: "none",
      reason:
        (index ? "the corpus index has no dev suite" : "no corpus index") +
        ", so no development rows to estimate power from: build the corpus (openmle task build-corpus), then run " +
        "the plan's arms on suite:dev (openmle experiment run on a dev plan)",
    });
  const rows = await devRows(ws, devIds, plan.level.kind); // 1.
  const keys = new Map<string, Map<string, string>>(); // 2. registration → arm → key
  for (const id of new Set(rows.flatMap((r) => (r.registrationId ? [r.registrationId] : [])))) {
    const reg = await readRegistration(ws, id);
    const arms = reg ? parseResolvedPlan(reg.plan, id).arms : [];
    keys.set(id, new Map(arms.map((a) => [a.name, armKey(a)])));
  }
  const keyOf = (r: DevRow) =>
    r.registrationId
      ? (keys.get(r.registrationId)?.get(r.armOrCheckpoint) ?? `?${r.armOrCheckpoint}`)
      : plan.level.kind === "search"
        ? `${r.armOrCheckpoint}+openmle`
        : r.armOrCheckpoint;
  const hashOf = new Map((index?.tasks ?? []).map((t) => [t.id, t.packageHash]));
  const boards = taskLeaderboards(devIds.map((id) => ({ id, packageHash: hashOf.get(id) }))); // 3.
  const normalisable = new Set(rows.filter((r) => r.normalized !== null).map((r) => `${r.source}\0${r.taskId}`));
  const outcomes = rows.map((r): CellOutcome & { source: string } => ({
    source: r.source,
    arm: keyOf(r),
    taskId: r.taskId,
    draw: r.draw,
    valid: r.valid,
    testScore: r.testScore,
    normalisable: r.normalisable ?? normalisable.has(`${r.source}\0${r.taskId}`),
    normalized: r.normalized,
    ...gradeOn(boards.get(r.taskId), r.testScore),
  }));
  const [a, b] = plan.decision.comparison.map((n) => armKey(plan.arms.find((x) => x.name === n)!)) as [string, string];
  const measure = plan.decision.measure;
  const draws = plan.level.kind === "search" ? plan.level.seeds : plan.level.draws;
  let values: DevValue[] = [];
  let winDiffs: number[] | undefined;
  if (measure === "win_rate") {
    const dirs = await taskDirections(ws);
    const known = (t: string) => typeof dirs.get(t) === "boolean";
    const side = (k: string) => outcomes.filter((o) => o.arm === k && known(o.taskId));
    winDiffs = taskDiffs("win_rate", side(a), side(b), (t) => dirs.get(t) === true).map((x) => x.d);
    values = outcomes.map((o) => ({ source: o.source, policy: o.arm, taskId: o.taskId, value: o.valid ? 1 : 0 }));
  } else
    values = outcomes.flatMap((o) => {
      const v = drawValue(measure, o);
      return v === null ? [] : [{ source: o.source, policy: o.arm, taskId: o.taskId, value: v }];
    });
  // 4.
  return done(powerEstimate({ measure, tasks: plan.tasks.length, draws, values, policyA: a, policyB: b, winDiffs }));
}
