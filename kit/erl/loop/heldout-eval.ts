import {
  evolve,
  meanDraftValidScore,
  readStoredRun,
  type EvolveConfigInput,
  type EvoEvent,
  type RunSummary,
} from "../../evo/index.js";
import { normalizedScore, runBaselines } from "../../eval/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Policy } from "../../policy/types.js";
import type { Executor } from "../../sandbox/executor.js";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";
import type { Workspace } from "../../store/index.js";
import { replaceHeldout, type HeldoutRow } from "./heldout-store.js";

export type Baselines = Record<string, { readonly trivial: number | null; readonly reference: number | null }>;

/**
 * A hidden test score normalised by its task's baselines pair: (test − trivial) / (reference − trivial)
 * (kit/eval normalizedScore); null without a test score or a usable pair.
 */
export function normalisedUnder(
  test: number | null,
  pair: Baselines[string] | undefined,
  higherIsBetter: boolean,
): number | null {
  if (!pair || pair.trivial === null || pair.reference === null) return null;
  return normalizedScore(test, { trivial: pair.trivial, reference: pair.reference }, higherIsBetter);
}

/**
 * The hidden test scores of kit/eval's trivial and reference baselines per held-out task (once per
 * loop), for the normalised score; null pairs when `enabled` is false or kit/eval has none for the task.
 * The programs run through `evaluate` when given (the loop's backend), else runSandbox on `executor` with the
 * workspace.
 */
export async function heldoutBaselines(
  ws: Workspace,
  tasks: readonly TaskPackage[],
  enabled: boolean,
  run: { readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>; readonly executor?: Executor } = {},
): Promise<Baselines> {
  const out: Baselines = {};
  for (const t of tasks) {
    if (!enabled) {
      out[t.meta.id] = { trivial: null, reference: null };
      continue;
    }
    try {
      const b = await runBaselines(t, { workspace: ws, ...run });
      out[t.meta.id] = { trivial: b.trivial, reference: b.reference };
    } catch {
      out[t.meta.id] = { trivial: null, reference: null }; // kit/eval has no baseline programs for this modality
    }
  }
  return out;
}

/**
 * Evolve `task` as run `runId`: a finished run is reused, a run left by a kill is resumed, else a
 * new run starts. Returns the run's stored summary.
 */
export async function evolveRun(
  ws: Workspace,
  task: TaskPackage,
  runId: string,
  policy: Policy,
  config: EvolveConfigInput,
  opts: { evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>; onEvent?: (e: EvoEvent) => void } = {},
): Promise<RunSummary> {
  const row = await readStoredRun(ws, runId);
  if (row?.status === "finished") return JSON.parse(row.summary!) as RunSummary;
  const res = await evolve({
    task,
    workspace: ws,
    policy,
    evaluate: opts.evaluate,
    onEvent: opts.onEvent,
    ...(row ? { resume: runId } : { config, runId }),
  });
  return res.summary;
}

/**
 * Held-out evaluation of one checkpoint at equal budget: evolve each held-out task once per seed
 * with the same settings, then per run record the champion's validation and hidden test scores,
 * the valid rate, the mean validation score of the successful drafts and
 * normalised = (test − trivial) / (reference − trivial) (kit/eval normalizedScore; null without baselines).
 * The rows replace every earlier row of the same (loop, generation); a run already finished under its id is read back,
 * not run again, so seeds can be added by passing the old ones with the new.
 */
export async function evaluateHeldout(opts: {
  readonly workspace: Workspace;
  readonly loopId: string;
  readonly generation: number;
  readonly checkpoint: string;
  readonly policy: Policy;
  readonly tasks: readonly TaskPackage[];
  readonly seeds: readonly number[];
  readonly evolve: EvolveConfigInput;
  readonly baselines: Baselines;
  readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  readonly onEvent?: (e: EvoEvent) => void;
}): Promise<HeldoutRow[]> {
  const ws = opts.workspace;
  const rows: HeldoutRow[] = [];
  for (const task of opts.tasks) {
    for (const seed of opts.seeds) {
      const runId = `${opts.loopId}-h${opts.generation}-${task.meta.id}-s${seed}`;
      const s = await evolveRun(
        ws,
        task,
        runId,
        opts.policy,
        { ...opts.evolve, seed },
        { evaluate: opts.evaluate, onEvent: opts.onEvent },
      );
      const draft = await meanDraftValidScore(ws, runId);
      const b = opts.baselines[task.meta.id] ?? { trivial: null, reference: null };
      const test = s.champion?.testScore ?? null;
      rows.push({
        loopId: opts.loopId,
        generation: opts.generation,
        checkpoint: opts.checkpoint,
        taskId: task.meta.id,
        seed,
        runId,
        validScore: s.champion?.validScore ?? null,
        testScore: test,
        validRate: s.validRate,
        meanDraftScore: draft,
        trivial: b.trivial,
        reference: b.reference,
        normalized: normalisedUnder(test, b, task.meta.higherIsBetter),
      });
    }
  }
  await replaceHeldout(ws, opts.loopId, opts.generation, rows);
  return rows;
}
