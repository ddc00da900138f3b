// Reading an experiment: its results (every read is a look, logged before anything is shown) and the history of
// every registration, run and look (which shows no result, so it is no look).
import { taskDirections } from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { ExperimentError } from "./errors.js";
import type { ResolvedPlan } from "./experiment-plan.js";
import {
  appendLook,
  listExperimentRuns,
  listRegistrations,
  readLooks,
  readRegistration,
  readResults,
  type ExperimentRunRow,
  type RegistrationRow,
  type ResultRow,
} from "./experiment-store.js";
import { summarizeCells, taskLines, type ExperimentSummary, type TaskLine } from "./experiment-summary.js";
import { look, resultLabel, type Look } from "./registration.js";
import { loadRegistration } from "./run-experiment.js";

export interface ExperimentResults {
  readonly registration: RegistrationRow;
  readonly plan: ResolvedPlan;
  /** The run shown; null when the registration has no completed run and none was asked for (no look logged). */
  readonly run: ExperimentRunRow | null;
  /** "registered <id>", "exploratory", or "re-run <n> of registered <id> (not the registered result)". */
  readonly label: string;
  readonly summary: Required<Pick<ExperimentSummary, "measures" | "verdict">> | null;
  readonly tasks: readonly TaskLine[];
  /** The run's cells (none without a run). */
  readonly cells: readonly ResultRow[];
  /** The looks of the registration, this one included. */
  readonly looks: readonly Look[];
}

/**
 * The registration and run an id names: a registration id (its run: none), or a run id `<registration>-r<n>`.
 */
export async function resolveExperimentId(
  ws: Workspace,
  id: string,
): Promise<{ registrationId: string; runId?: string }> {
  const m = /^(.+)-r\d+$/.exec(id);
  if (m && !(await readRegistration(ws, id)) && (await readRegistration(ws, m[1]!)))
    return { registrationId: m[1]!, runId: id };
  return { registrationId: id };
}

/**
 * The results of registration `id`: of run `runId` when given (a re-run, or a run not completed: partial),
 * else THE registered result (its first completed run). Before any result is read, a look {time, command, what}
 * is appended to experiment_looks. A registration with no completed run and no `runId` shows none and logs none.
 */
export async function readExperimentResults(
  ws: Workspace,
  id: string,
  opts: { readonly runId?: string; readonly command: string; readonly now?: () => number },
): Promise<ExperimentResults> {
  const { reg, plan } = await loadRegistration(ws, id);
  const runs = await listExperimentRuns(ws, id);
  const run = opts.runId
    ? runs.find((r) => r.runId === opts.runId)
    : (runs.find((r) => r.isRegisteredResult) ?? runs.find((r) => r.status === "completed"));
  if (opts.runId && !run)
    throw new ExperimentError(
      `registration ${id} has no run "${opts.runId}"; its runs: ${runs.map((r) => r.runId).join(", ") || "none"}`,
    );
  if (!run) {
    const none = reg.label === "registered" ? `registered ${id} (no completed run yet)` : "exploratory";
    return {
      registration: reg,
      plan,
      run: null,
      label: none,
      summary: null,
      tasks: [],
      cells: [],
      looks: await readLooks(ws, id),
    };
  }
  const label = resultLabel(reg, run);
  const partial = run.status === "completed" ? "" : ` (partial: the run is ${run.status})`;
  await appendLook(ws, look(id, opts.command, `results of run ${run.runId}: ${label}${partial}`, opts.now));
  const cells = await readResults(ws, run.runId);
  const dirs = await taskDirections(ws);
  const summary = summarizeCells(plan, cells, (t) => dirs.get(t) !== false);
  return {
    registration: reg,
    plan,
    run,
    label: label + partial,
    summary,
    tasks: taskLines(plan, cells),
    cells,
    looks: await readLooks(ws, id),
  };
}

/** One registration in the history: its runs and how many times its results were read. */
export interface RegistrationHistory {
  readonly registration: RegistrationRow;
  readonly runs: readonly ExperimentRunRow[];
  readonly looks: number;
  readonly lastLook: Date | null;
}

/** Every registration with its runs and its looks' count (reads no result: no look). */
export async function experimentHistory(ws: Workspace): Promise<RegistrationHistory[]> {
  const regs = await listRegistrations(ws);
  const runs = await listExperimentRuns(ws);
  const looks = await readLooks(ws);
  return regs.map((registration) => {
    const mine = looks.filter((l) => l.registrationId === registration.registrationId);
    return {
      registration,
      runs: runs.filter((r) => r.registrationId === registration.registrationId),
      looks: mine.length,
      lastLook: mine.at(-1)?.at ?? null,
    };
  });
}
