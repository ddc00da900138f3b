// Running a registration: exactly the stored plan, resumably, every arm on the same draws; at the end the plan's
// measures, the decision rule's verdict and whether this run is THE registered result.
import { heldoutBaselines, normalisableTasks, type Baselines } from "../erl/index.js";
import { metricDirections, packageHash, recordTaskReview, resolveTask, type TaskPackage } from "../gym/index.js";
import type { Policy } from "../policy/index.js";
import { runSandbox, type ExecutionRecord, type SandboxJob } from "../sandbox/index.js";
import type { Workspace } from "../store/index.js";
import { armPolicy, type LlmPolicyFactory } from "./arm-policy.js";
import { PlanDriftError, RegistrationNotFoundError } from "./errors.js";
import { parseResolvedPlan, type ResolvedPlan } from "./experiment-plan.js";
import {
  appendResults,
  endExperimentRun,
  insertExperimentRun,
  listExperimentRuns,
  listRegistrations,
  markExperimentRunRunning,
  readRegistration,
  readResults,
  writeRunSummary,
  type RegistrationRow,
  type ResultRow,
} from "./experiment-store.js";
import { summarizeCells, type ExperimentSummary } from "./experiment-summary.js";
import { kitCommit } from "./kit-commit.js";
import { isFirstCompleted, nextRun, type RegistrationLabel } from "./registration.js";
import { draftCell, searchCell, type Cell, type CellContext } from "./run-cells.js";
import { leaderboardHash, taskLeaderboards } from "./task-leaderboards.js";

export type ExperimentEvent =
  | {
      readonly type: "run-start";
      readonly runId: string;
      readonly resumed: boolean;
      /** Cells stored before this call (kept), and cells in all. */
      readonly stored: number;
      readonly total: number;
    }
  | { readonly type: "baselines"; readonly tasks: number }
  | { readonly type: "warning"; readonly message: string }
  | {
      readonly type: "cell";
      /** drafts: `draw` is the draw index; search: the seed. */
      readonly level: "drafts" | "search";
      readonly arm: string;
      readonly taskId: string;
      readonly draw: number;
      readonly valid: boolean;
      readonly testScore: number | null;
      readonly done: number;
      readonly total: number;
    }
  | { readonly type: "run-end"; readonly runId: string; readonly isRegisteredResult: boolean };

export interface RunExperimentOptions {
  readonly workspace: Workspace;
  readonly registrationId: string;
  /** Runs one program (drafts, baselines, evolve). Default: runSandbox on the local backend. */
  readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  /** Drafts in flight; default the plan's concurrency (results do not depend on it: each draw has its seed). */
  readonly jobs?: number;
  /** The policy of LLM arms (the CLI builds the endpoint's model). */
  readonly llmPolicy?: LlmPolicyFactory;
  readonly onEvent?: (e: ExperimentEvent) => void;
  readonly now?: () => number;
  /** The commit this run records; default kitCommit(). */
  readonly kitCommit?: string;
}

export interface RunExperimentResult {
  readonly runId: string;
  readonly runNumber: number;
  readonly resumed: boolean;
  readonly isRegisteredResult: boolean;
  /** The registration's label: registered (names confirm tasks) or exploratory. */
  readonly label: RegistrationLabel;
  readonly cells: number;
  /** Cells run by this call (the others were stored before). */
  readonly executed: number;
}

/** The registration, or RegistrationNotFoundError listing the workspace's. */
export async function loadRegistration(
  ws: Workspace,
  id: string,
): Promise<{ reg: RegistrationRow; plan: ResolvedPlan }> {
  const reg = await readRegistration(ws, id);
  if (!reg) {
    const ids = (await listRegistrations(ws)).map((r) => r.registrationId);
    throw new RegistrationNotFoundError(
      `no registration "${id}" in ${ws.dir}; ` +
        (ids.length ? `it has: ${ids.join(", ")}` : "it has none (openmle experiment register PLAN --workspace DIR)"),
    );
  }
  return { reg, plan: parseResolvedPlan(reg.plan, id) };
}

/** The plan's task packages (the seal lifted: this is a registered experiment), each refused if it changed. */
async function planTasks(plan: ResolvedPlan): Promise<TaskPackage[]> {
  const out: TaskPackage[] = [];
  for (const t of plan.tasks) {
    const pkg = await resolveTask(t.ref, { allowConfirm: true });
    const hash = packageHash(pkg.dir);
    if (hash !== t.packageHash || pkg.meta.id !== t.id)
      throw new PlanDriftError(
        `task ${t.id}'s package changed since registration (hash ${t.packageHash} → ${hash}): a changed plan is a ` +
          "new registration (openmle experiment register PLAN)",
      );
    out.push(pkg);
  }
  return out;
}

/** Every cell of the plan, task by task, draw by draw, arm by arm (a partial run stays balanced across arms). */
function planCells(plan: ResolvedPlan, tasks: readonly TaskPackage[]): Cell[] {
  const draws =
    plan.level.kind === "drafts"
      ? Array.from({ length: plan.level.draws }, (_, i) => i)
      : Array.from({ length: plan.level.seeds }, (_, i) => i + 1);
  return tasks.flatMap((task) => draws.flatMap((draw) => plan.arms.map((a) => ({ arm: a.name, task, draw }))));
}

const needsBaselines = (plan: ResolvedPlan) => plan.measures.some((m) => m === "normalized" || m === "median_score");

/**
 * 1. the registration and its plan; the tasks (hash-checked) and the arms' policies (params-checked), before any
 *    run is opened, so a drifted plan leaves nothing behind;
 * 2. the run: the latest one resumed while not completed, else a new one (nextRun);
 * 3. the baselines (when a measure normalises; kept in the run's summary, so a resume does not rerun them);
 * 4. every cell not stored yet: drafts `jobs` at a time, search runs one by one; each batch stored as it ends;
 * 5. the measures and the verdict (summarizeCells), stored; the run completed, THE registered result when it is the
 *    registration's first completed run. A failure marks the run failed (resumable) and rethrows.
 */
export async function runExperiment(opts: RunExperimentOptions): Promise<RunExperimentResult> {
  const ws = opts.workspace;
  const now = opts.now ?? Date.now;
  const say = (e: ExperimentEvent) => opts.onEvent?.(e);
  const { reg, plan } = await loadRegistration(ws, opts.registrationId); // 1.
  const tasks = await planTasks(plan);
  const policies = new Map<string, Policy>();
  for (const arm of plan.arms) policies.set(arm.name, await armPolicy(arm, ws, opts.llmPolicy));
  const commit = opts.kitCommit ?? kitCommit();
  if (commit !== reg.kitCommit)
    say({ type: "warning", message: `the kit is at ${commit}, the registration at ${reg.kitCommit}` });

  const runs = await listExperimentRuns(ws, reg.registrationId); // 2.
  const next = nextRun(reg.registrationId, runs);
  if (next.action === "new")
    await insertExperimentRun(ws, {
      runId: next.runId,
      runNumber: next.runNumber,
      registrationId: reg.registrationId,
      kitCommit: commit,
      startedAt: new Date(now()),
    });
  else await markExperimentRunRunning(ws, next.runId);
  // No workspace: evolve stores its own nodes' records, and a draft's outcome is its experiment_results row.
  const evaluate = opts.evaluate ?? ((job: SandboxJob) => runSandbox(job));
  try {
    for (const t of tasks) await recordTaskReview(ws, t, {}); // the tasks' metrics, for show without packages
    const stored = runs.find((r) => r.runId === next.runId)?.summary as ExperimentSummary | null | undefined;
    let baselines: Baselines = stored?.baselines ?? {}; // 3.
    if (!stored?.baselines) {
      if (needsBaselines(plan)) say({ type: "baselines", tasks: tasks.length });
      baselines = await heldoutBaselines(ws, tasks, needsBaselines(plan), { evaluate });
      await writeRunSummary(ws, next.runId, { baselines } satisfies ExperimentSummary);
    }
    const ctx: CellContext = {
      ws,
      runId: next.runId,
      plan,
      baselines,
      normalisable: normalisableTasks(baselines, metricDirections(tasks)),
      boards: pinnedBoards(plan, tasks, (message) => say({ type: "warning", message })),
      evaluate,
    };
    const all = planCells(plan, tasks); // 4.
    const have = new Set((await readResults(ws, next.runId)).map((r) => `${r.arm}\0${r.taskId}\0${r.draw}`));
    const todo = all.filter((c) => !have.has(`${c.arm}\0${c.task.meta.id}\0${c.draw}`));
    say({
      type: "run-start",
      runId: next.runId,
      resumed: next.action === "resume",
      stored: have.size,
      total: all.length,
    });
    // Search cells run one at a time: evolve runs side by side on one workspace connection would interleave their
    // transactions (the workspace does not queue its callers).
    const jobs = plan.level.kind === "drafts" ? Math.max(1, opts.jobs ?? plan.concurrency) : 1;
    let done = have.size;
    for (let i = 0; i < todo.length; i += jobs) {
      const batch = todo.slice(i, i + jobs);
      const rows: ResultRow[] = await Promise.all(
        batch.map((c) => {
          const arm = plan.arms.find((a) => a.name === c.arm)!;
          const policy = policies.get(c.arm)!;
          return arm.harness ? searchCell(ctx, c, policy, arm.harness) : draftCell(ctx, c, policy);
        }),
      );
      await appendResults(ws, rows);
      for (const r of rows)
        say({
          type: "cell",
          level: plan.level.kind,
          arm: r.arm,
          taskId: r.taskId,
          draw: r.draw,
          valid: r.valid,
          testScore: r.testScore,
          done: ++done,
          total: all.length,
        });
    }
    const cells = await readResults(ws, next.runId); // 5.
    const { measures, verdict } = summarizeCells(plan, cells, metricDirections(tasks));
    const summary: ExperimentSummary = { baselines, measures, verdict, cells: cells.length };
    await writeRunSummary(ws, next.runId, summary);
    const latest = await listExperimentRuns(ws, reg.registrationId);
    const isRegisteredResult = isFirstCompleted(latest, next.runId);
    await endExperimentRun(ws, next.runId, { status: "completed", at: new Date(now()), isRegisteredResult });
    say({ type: "run-end", runId: next.runId, isRegisteredResult });
    return {
      runId: next.runId,
      runNumber: next.runNumber,
      resumed: next.action === "resume",
      isRegisteredResult,
      label: reg.label,
      cells: cells.length,
      executed: todo.length,
    };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    await endExperimentRun(ws, next.runId, { status: "failed", at: new Date(now()), isRegisteredResult: false, error });
    throw e;
  }
}

/** The plan's leaderboards, each refused if it is not the one registered (PlanDriftError: register again). */
function pinnedBoards(plan: ResolvedPlan, tasks: readonly TaskPackage[], warn: (message: string) => void) {
  const boards = taskLeaderboards(
    tasks.map((t, i) => ({
      id: t.meta.id,
      competitionId: t.meta.competitionId,
      packageHash: plan.tasks[i]!.packageHash,
    })),
    warn,
  );
  for (const t of plan.tasks) {
    const b = boards.get(t.id);
    const now = b ? leaderboardHash(b) : null;
    if (now !== t.leaderboardHash)
      throw new PlanDriftError(
        `task ${t.id}'s leaderboard changed since registration (${t.leaderboardHash ?? "none"} → ${now ?? "none"}): ` +
          "a changed plan is a new registration (openmle experiment register PLAN)",
      );
  }
  return boards;
}
