// The cells of an experiment run: one fresh Draft (drafts level) or one evolve run's champion (search level) of an
// arm on a task, executed and graded on the hidden test. Composed from kit/erl's pieces (the held-out drafts'
// context and draw seeds, the loop's evolveRun and normalisation), so a cell is measured exactly as the loop's
// held-out rows are.
import { evolveRun, heldoutDraft, normalisedUnder, type Baselines } from "../erl/index.js";
import type { EvolveConfigInput } from "../evo/index.js";
import type { TaskPackage } from "../gym/index.js";
import type { Policy } from "../policy/index.js";
import type { ExecutionRecord, SandboxJob } from "../sandbox/index.js";
import type { Workspace } from "../store/index.js";
import type { Leaderboard } from "../eval/index.js";
import { EVO_MAX_WORKERS, type ResolvedPlan, type SearchHarness } from "./experiment-plan.js";
import type { ResultRow } from "./experiment-store.js";
import { gradeOn } from "./task-leaderboards.js";

/** What every cell of a run shares. */
export interface CellContext {
  readonly ws: Workspace;
  readonly runId: string;
  readonly plan: ResolvedPlan;
  readonly baselines: Baselines;
  readonly normalisable: ReadonlySet<string>;
  readonly boards: ReadonlyMap<string, Leaderboard>;
  readonly evaluate: (job: SandboxJob) => Promise<ExecutionRecord>;
}

/** One cell to run: arm × task × draw (drafts) or seed (search). */
export interface Cell {
  readonly arm: string;
  readonly task: TaskPackage;
  readonly draw: number;
}

/** The row of a cell from its graded test score (shared by both levels). */
function row(
  c: CellContext,
  cell: Cell,
  r: Pick<ResultRow, "status" | "valid" | "validScore" | "testScore" | "validRate" | "evolveRunId" | "sandboxS">,
): ResultRow {
  const id = cell.task.meta.id;
  return {
    runId: c.runId,
    arm: cell.arm,
    taskId: id,
    draw: cell.draw,
    ...r,
    normalisable: c.normalisable.has(id),
    normalized: normalisedUnder(r.testScore, c.baselines[id], cell.task.meta.higherIsBetter),
    ...gradeOn(c.boards.get(id), r.testScore),
  };
}

/**
 * A fresh Draft, as kit/erl's heldoutDrafts draws it (heldoutDraft: no parents, no memory, the policy's rng seeded
 * keyedSeed(plan seed, "<task>#<draw>") so every arm drafts from the same draws), executed under the plan's limits,
 * valid when it succeeded with a finite hidden test score.
 */
export async function draftCell(c: CellContext, cell: Cell, policy: Policy): Promise<ResultRow> {
  const d = await heldoutDraft(cell.task, cell.draw, {
    policy,
    seed: c.plan.seed,
    timeoutS: c.plan.timeoutS,
    memoryMb: c.plan.memoryMb,
    evaluate: c.evaluate,
  });
  return row(c, cell, {
    status: d.status,
    valid: d.testScore !== null,
    validScore: d.validScore,
    testScore: d.testScore,
    validRate: null,
    evolveRunId: null,
    sandboxS: d.sandboxS,
  });
}

/** A search cell's evolve run id: stable, so a killed run resumes and a finished one is read back. */
export const evolveRunId = (runId: string, arm: string, taskId: string, seed: number): string =>
  `${runId}-${arm}-${taskId}-s${seed}`;

/**
 * The evolve config of a search cell: the arm's harness (evo-max = openmle with cross-task priors and
 * EVO_MAX_WORKERS async workers, its priors drawn from tasks outside the plan), the plan's steps and limits, the seed.
 */
export function searchConfig(plan: ResolvedPlan, harness: SearchHarness, seed: number): EvolveConfigInput {
  const steps = plan.level.kind === "search" ? plan.level.steps : 1;
  const base = { steps, seed, perRunTimeoutS: plan.timeoutS, memoryMb: plan.memoryMb };
  if (harness !== "evo-max") return { ...base, harness };
  return {
    ...base,
    harness: "openmle",
    priors: true,
    workers: EVO_MAX_WORKERS,
    priorsExcludeTasks: plan.tasks.map((t) => t.id),
  };
}

/** A search cell: the arm's evolve run on the task with this seed (kit/erl evolveRun: resumed or read back). */
export async function searchCell(
  c: CellContext,
  cell: Cell,
  policy: Policy,
  harness: SearchHarness,
): Promise<ResultRow> {
  const runId = evolveRunId(c.runId, cell.arm, cell.task.meta.id, cell.draw);
  const s = await evolveRun(c.ws, cell.task, runId, policy, searchConfig(c.plan, harness, cell.draw), {
    evaluate: c.evaluate,
  });
  const test = s.champion?.testScore ?? null;
  return row(c, cell, {
    status: s.stopReason,
    valid: test !== null && Number.isFinite(test),
    validScore: s.champion?.validScore ?? null,
    testScore: test,
    validRate: s.validRate,
    evolveRunId: runId,
    sandboxS: s.sandboxS,
  });
}
