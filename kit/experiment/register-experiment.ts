// Registering a plan: resolve it, check the arms' training is disjoint from its tasks, hash it, state its power, and
// store it (labelled registered when it names a sealed task, exploratory otherwise).
import type { CorpusIndex } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { TrainingOverlapError } from "./errors.js";
import type { ExperimentPlan, ResolvedPlan } from "./experiment-plan.js";
import { insertRegistration, readRegistration, type RegistrationRow } from "./experiment-store.js";
import { registrationPower } from "./dev-power.js";
import {
  disjointFromTraining,
  isRegistrationRequired,
  planHash,
  registrationId,
  registrationLabel,
} from "./registration.js";
import { resolvePlan } from "./resolve-plan.js";

export interface RegisterOptions {
  readonly workspace: Workspace;
  readonly plan: ExperimentPlan;
  /** The corpus index for suite: items; default readCorpusIndex (the CLI's builds a missing corpus first). */
  readonly loadIndex?: () => Promise<CorpusIndex>;
  /** The corpus index as it is (studies, the seal, the dev suite of the power line); default: never built. */
  readonly readIndex?: () => Promise<CorpusIndex | null>;
  readonly kitCommit?: string;
  readonly now?: () => number;
  readonly onTask?: (taskId: string, done: number, of: number) => void;
}

export interface Registration {
  readonly registration: RegistrationRow;
  readonly plan: ResolvedPlan;
  /** False when the same plan (same hash) was registered before: that registration is returned unchanged. */
  readonly created: boolean;
}

/**
 * 1. resolve the plan (resolvePlan);
 * 2. refuse an arm trained on a task sharing a study with a plan task (disjointFromTraining: TrainingOverlapError);
 *    an arm whose training is unknown is registered with a warning;
 * 3. hash it (planHash); the same plan registered before is that registration (nothing is stored again);
 * 4. the power line (registrationPower) and the label (isRegistrationRequired);
 * 5. store it.
 */
export async function registerExperiment(opts: RegisterOptions): Promise<Registration> {
  const ws = opts.workspace;
  const { plan, confirmIds } = await resolvePlan(opts.plan, opts); // 1.
  const studies = new Map(plan.tasks.map((t) => [t.id, t.study]));
  const check = disjointFromTraining(
    // 2.
    plan.tasks.map((t) => t.id),
    new Map(plan.arms.map((a) => [a.name, a.trainingTasks])),
    (id) => studies.get(id) ?? id,
  );
  if (!check.ok) {
    const o = check.overlaps[0]!;
    throw new TrainingOverlapError(
      `arm ${o.arm} was trained on ${o.trainingTask}, which shares study ${o.study} with the plan's task ` +
        `${o.planTask}` +
        (check.overlaps.length > 1 ? ` (and ${check.overlaps.length - 1} more overlaps)` : "") +
        ": measure it on tasks disjoint from its training, or use a checkpoint trained without them",
    );
  }
  const warnings = check.unknown.map(
    (arm) =>
      `arm ${arm}: its training tasks are unknown (a params file, an endpoint, or a checkpoint whose lineage is not ` +
      "stored here), so its disjointness from the plan's tasks is not checked",
  );
  const hash = planHash(plan); // 3.
  const id = registrationId(hash);
  const existing = await readRegistration(ws, id);
  if (existing) return { registration: existing, plan, created: false };
  const { line } = await registrationPower(ws, plan, opts); // 4.
  const registration: RegistrationRow = {
    registrationId: id,
    name: plan.name,
    question: plan.question,
    plan: JSON.stringify(plan),
    planHash: hash,
    kitCommit: plan.kitCommit,
    registeredAt: new Date((opts.now ?? Date.now)()),
    label: registrationLabel(isRegistrationRequired(plan, confirmIds)),
    powerLine: line,
    warnings,
  };
  await insertRegistration(ws, registration); // 5.
  return { registration, plan, created: true };
}
