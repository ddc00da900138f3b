// The rules of registered experiments (issue 60), as pure functions: what a registration pins, which plans need
// one, what a result is labelled, which run is THE registered result, how a read is logged, and which arms may be
// registered at all (training disjoint from the plan's tasks by study).
import { createHash } from "node:crypto";
import { canonicalJson } from "../store/index.js";
import type { ResolvedPlan } from "./experiment-plan.js";

/**
 * The plan hash: sha256 (hex) of canonicalJson(plan) with every task's `ref` left out. canonicalJson sorts keys, so
 * key order does not matter; the hash covers the arms as resolved (params and checkpoint hashes), the task ids
 * with their package hashes and studies, the level, seed, measures, decision rule, limits and the kit's commit.
 * `ref` (where the package lies on this machine) is left out: the package hash pins its content.
 */
export function planHash(plan: ResolvedPlan): string {
  const pinned = { ...plan, tasks: plan.tasks.map(({ ref: _ref, ...t }) => t) };
  return createHash("sha256").update(canonicalJson(pinned)).digest("hex");
}

/** A registration's id: `exp-` and the plan hash's first 12 hex digits (the same plan: the same registration). */
export const registrationId = (hash: string): string => `exp-${hash.slice(0, 12)}`;

/** registered: the plan names a sealed (confirm) task; exploratory: it names none. */
export type RegistrationLabel = "registered" | "exploratory";

/**
 * A plan needs registration when any of its tasks is a confirm task:
 *     required ⇔ {t ∈ plan.tasks} ∩ confirmIds ≠ ∅
 * A plan that names none runs as "exploratory" (it is stored and logged all the same).
 */
export function isRegistrationRequired(
  plan: { readonly tasks: readonly { readonly id: string }[] },
  confirmIds: ReadonlySet<string>,
): boolean {
  return plan.tasks.some((t) => confirmIds.has(t.id));
}

export const registrationLabel = (required: boolean): RegistrationLabel => (required ? "registered" : "exploratory");

/** What a run of a registration is, for the rules below. */
export interface RunState {
  readonly runId: string;
  readonly runNumber: number;
  readonly status: "running" | "completed" | "failed";
  readonly isRegisteredResult: boolean;
}

/**
 * The label a result is shown under:
 *   exploratory registration                    → "exploratory"
 *   registered, run is the registered result    → "registered <id>"
 *   registered, any other run (re-run, partial) → "re-run <n> of registered <id> (not the registered result)"
 */
export function resultLabel(
  reg: { readonly registrationId: string; readonly label: RegistrationLabel },
  run: Pick<RunState, "runNumber" | "isRegisteredResult">,
): string {
  if (reg.label === "exploratory") return "exploratory";
  if (run.isRegisteredResult) return `registered ${reg.registrationId}`;
  return `re-run ${run.runNumber} of registered ${reg.registrationId} (not the registered result)`;
}

/**
 * What `openmle experiment run` does with a registration whose runs are `runs`: the latest run, when it is not
 * completed (killed while running, or failed), is resumed (its stored cells are kept); otherwise a new run starts,
 * numbered one past the last: `<id>-r<n>`.
 */
export function nextRun(
  registrationId: string,
  runs: readonly RunState[],
): { readonly action: "resume" | "new"; readonly runId: string; readonly runNumber: number } {
  const last = [...runs].sort((a, b) => a.runNumber - b.runNumber).at(-1);
  if (last && last.status !== "completed") return { action: "resume", runId: last.runId, runNumber: last.runNumber };
  const n = (last?.runNumber ?? 0) + 1;
  return { action: "new", runId: `${registrationId}-r${n}`, runNumber: n };
}

/**
 * The first completed run of a registration is THE registered result; a re-run, completed later, is not (a new
 * result needs a new registration, i.e. a changed plan):
 *     isRegisteredResult(run) ⇔ no other run of the registration is completed
 * evaluated when `runId` completes.
 */
export function isFirstCompleted(runs: readonly RunState[], runId: string): boolean {
  return !runs.some((r) => r.runId !== runId && r.status === "completed");
}

/** One read of an experiment's results: appended to experiment_looks by every command that shows them. */
export interface Look {
  readonly registrationId: string;
  readonly at: Date;
  /** The command line that read them, e.g. `openmle experiment show exp-1a2b3c4d5e6f`. */
  readonly command: string;
  /** What was read, e.g. "results of run exp-…-r1 (registered result)". */
  readonly what: string;
}

/** The look-log rule: every read of results is a look, logged before the results are shown (time from `now`). */
export const look = (registrationId: string, command: string, what: string, now: () => number = Date.now): Look => ({
  registrationId,
  at: new Date(now()),
  command,
  what,
});

/** A plan task that shares a study with a task an arm was trained on. */
export interface TrainingOverlap {
  readonly arm: string;
  readonly planTask: string;
  readonly trainingTask: string;
  readonly study: string;
}

/**
 * Whether every arm's training is disjoint from the plan's tasks by study:
 *     overlaps = {(arm, p, q) : p ∈ planTasks, q ∈ training(arm), study(p) = study(q)}
 * ok ⇔ overlaps = ∅. Arms whose training tasks are "unknown" (a params file, an LLM, a checkpoint whose lineage
 * is not stored) cannot be checked: they are listed in `unknown` (registration records that and warns).
 */
export function disjointFromTraining(
  planTasks: readonly string[],
  armTrainingTasks: ReadonlyMap<string, readonly string[] | "unknown">,
  studyOf: (taskId: string) => string,
): { readonly ok: boolean; readonly overlaps: readonly TrainingOverlap[]; readonly unknown: readonly string[] } {
  const byStudy = new Map<string, string[]>();
  for (const p of planTasks) byStudy.set(studyOf(p), [...(byStudy.get(studyOf(p)) ?? []), p]);
  const overlaps: TrainingOverlap[] = [];
  const unknown: string[] = [];
  for (const [arm, training] of armTrainingTasks) {
    if (training === "unknown") {
      unknown.push(arm);
      continue;
    }
    for (const q of training) {
      const study = studyOf(q);
      for (const p of byStudy.get(study) ?? []) overlaps.push({ arm, planTask: p, trainingTask: q, study });
    }
  }
  return { ok: overlaps.length === 0, overlaps, unknown };
}
