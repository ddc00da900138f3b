import { evolve, type EvolveConfigInput, type EvoEvent, type RunSummary } from "../../evo/index.js";
import { normalizedScore } from "../../eval/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Policy } from "../../policy/types.js";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";
import type { Workspace } from "../../store/index.js";

/** One held-out evolve run of a checkpoint (table `loop_heldout`). */
export interface HeldoutRow {
  readonly loopId: string;
  readonly generation: number;
  readonly checkpoint: string;
  readonly taskId: string;
  readonly seed: number;
  readonly runId: string;
  readonly validScore: number | null;
  readonly testScore: number | null;
  readonly validRate: number;
  readonly meanDraftScore: number | null;
  readonly trivial: number | null;
  readonly reference: number | null;
  readonly normalized: number | null;
}

export type Baselines = Record<string, { readonly trivial: number | null; readonly reference: number | null }>;

/**
 * Evolve `task` as run `runId`: a finished run is reused, a run left by a kill is resumed, else a
 * new run starts. Returns the run's stored summary.
 */
export async function evolveRun(ws: Workspace, task: TaskPackage, runId: string, policy: Policy, config: EvolveConfigInput,
  opts: { evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>; onEvent?: (e: EvoEvent) => void } = {}): Promise<RunSummary> {
  const row = (await ws.query<{ status: string; summary: string | null }>("SELECT status, summary FROM runs WHERE run_id = $r", { r: runId }))[0];
  if (row?.status === "finished") return JSON.parse(row.summary!) as RunSummary;
  const res = await evolve({ task, workspace: ws, policy, evaluate: opts.evaluate, onEvent: opts.onEvent, ...(row ? { resume: runId } : { config, runId }) });
  return res.summary;
}

/**
 * Held-out evaluation of one checkpoint at equal budget: evolve each held-out task once per seed
 * with the same settings, then per run record the champion's validation and hidden test scores,
 * the valid rate, the mean validation score of the successful drafts and
 * normalised = (test − trivial) / (reference − trivial) (kit/eval normalizedScore; null without baselines).
 * Rows replace earlier rows of the same (loop, generation, task, seed).
 */
export async function evaluateHeldout(opts: {
  readonly workspace: Workspace; readonly loopId: string; readonly generation: number; readonly checkpoint: string;
  readonly policy: Policy; readonly tasks: readonly TaskPackage[]; readonly seeds: readonly number[]; readonly evolve: EvolveConfigInput;
  readonly baselines: Baselines; readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>; readonly onEvent?: (e: EvoEvent) => void;
}): Promise<HeldoutRow[]> {
  const ws = opts.workspace;
  const rows: HeldoutRow[] = [];
  for (const task of opts.tasks) {
    for (const seed of opts.seeds) {
      const runId = `${opts.loopId}-h${opts.generation}-${task.meta.id}-s${seed}`;
      const s = await evolveRun(ws, task, runId, opts.policy, { ...opts.evolve, seed }, { evaluate: opts.evaluate, onEvent: opts.onEvent });
      const draft = (await ws.query<{ m: number | null }>("SELECT avg(valid_score) AS m FROM nodes WHERE run_id = $r AND operator = 'draft' AND status = 'success'", { r: runId }))[0]?.m ?? null;
      const b = opts.baselines[task.meta.id] ?? { trivial: null, reference: null };
      const test = s.champion?.testScore ?? null;
      rows.push({
        loopId: opts.loopId, generation: opts.generation, checkpoint: opts.checkpoint, taskId: task.meta.id, seed, runId,
        validScore: s.champion?.validScore ?? null, testScore: test, validRate: s.validRate, meanDraftScore: draft,
        trivial: b.trivial, reference: b.reference,
        normalized: b.trivial !== null && b.reference !== null ? normalizedScore(test, { trivial: b.trivial, reference: b.reference }, task.meta.higherIsBetter) : null,
      });
    }
  }
  await ws.transaction(async () => {
    await ws.exec("DELETE FROM loop_heldout WHERE loop_id = $l AND generation = $g", { l: opts.loopId, g: opts.generation });
    await ws.append("loop_heldout", rows.map((r) => ({
      loop_id: r.loopId, generation: r.generation, checkpoint: r.checkpoint, task_id: r.taskId, seed: r.seed, run_id: r.runId,
      valid_score: r.validScore, test_score: r.testScore, valid_rate: r.validRate, mean_draft_score: r.meanDraftScore,
      trivial: r.trivial, reference: r.reference, normalized: r.normalized,
    })));
  });
  return rows;
}

/** The held-out rows of a loop (all generations), ordered by generation, task and seed. */
export async function loadHeldout(ws: Workspace, loopId: string): Promise<HeldoutRow[]> {
  const rows = await ws.query<Record<string, unknown>>("SELECT * FROM loop_heldout WHERE loop_id = $l ORDER BY generation, task_id, seed", { l: loopId });
  return rows.map((r) => ({
    loopId: r.loop_id as string, generation: Number(r.generation), checkpoint: r.checkpoint as string, taskId: r.task_id as string, seed: Number(r.seed),
    runId: r.run_id as string, validScore: r.valid_score as number | null, testScore: r.test_score as number | null, validRate: Number(r.valid_rate),
    meanDraftScore: r.mean_draft_score as number | null, trivial: r.trivial as number | null, reference: r.reference as number | null, normalized: r.normalized as number | null,
  }));
}
