import type { EvoEvent } from "../../evo/index.js";
import { metricDirections } from "../../gym/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Executor } from "../../sandbox/executor.js";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";
import { endRun, type Workspace } from "../../store/index.js";
import { loadCheckpoint, resolvePolicyParams } from "../checkpoints.js";
import { LoopError } from "../errors.js";
import { evaluateHeldout, heldoutBaselines, type Baselines } from "./heldout-eval.js";
import { loadHeldoutDrafts, type HeldoutDraftRow } from "./heldout-drafts-store.js";
import { loadHeldout, type HeldoutRow } from "./heldout-store.js";
import { normalisableTasks } from "./heldout-summary.js";
import { stageSettings, type LoopConfig, type LoopConfigInput } from "./loop-config.js";
import type { LoopStage } from "./loop-store.js";
import { openLoop } from "./open-loop.js";
import { stageRunner } from "./stage-runner.js";
import { draftEvaluate, evolveEvaluate, policyFor, trainGeneration, type LoopRun } from "./train-generation.js";
import { heldoutDrafts } from "./heldout-drafts.js";

export type LoopEvent =
  | { readonly type: "stage-start"; readonly generation: number; readonly stage: LoopStage }
  | { readonly type: "stage-done"; readonly generation: number; readonly stage: LoopStage; readonly result: unknown }
  | { readonly type: "stage-skipped"; readonly generation: number; readonly stage: LoopStage }
  | { readonly type: "evo"; readonly event: EvoEvent };

export interface LoopOptions {
  readonly workspace: Workspace;
  /** Loop id: a new loop, or an existing one to resume (its stored config and task sets are used). */
  readonly loopId: string;
  readonly trainTasks: readonly TaskPackage[];
  readonly heldoutTasks: readonly TaskPackage[];
  readonly config?: LoopConfigInput;
  /**
   * Runs one program for every stage: evolve (training and held-out runs), collectSft's drafts, the held-out
   * baselines and trainRL's groups, e.g. the queue client's (kit/sandbox queueEvaluate). Default: runSandbox
   * on `executor`, as each call does by itself (collectSft and the baselines store records in the workspace,
   * trainRL pools its groups on `workers` slots).
   */
  readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  /** Without `evaluate`: where every stage's programs run (local or Docker; default the local executor). */
  readonly executor?: Executor;
  /** The clock of the loop's own records (loops, loop_stages) and of trainRL (default Date.now). */
  readonly now?: () => number;
  readonly onEvent?: (e: LoopEvent) => void;
}

/** One generation's lineage, stored with checkpoint k+1 and returned. */
export interface GenerationRecord {
  readonly generation: number;
  readonly checkpoint: string;
  readonly parent: string;
  /** The policy whose evolve trees and drafts were the SFT data (the loop's teacher, or the parent itself). */
  readonly teacher: string;
  readonly trainRuns: readonly string[];
  readonly dataset: string;
  readonly examples: number;
  readonly composition: unknown;
  readonly sftCheckpoint: string;
  readonly rlRun: string;
}

export interface LoopResult {
  readonly loopId: string;
  readonly config: LoopConfig;
  /** checkpoints[k] is generation k's policy ("default" or a name). */
  readonly checkpoints: readonly string[];
  readonly generations: readonly GenerationRecord[];
  /** The search level: one held-out evolve run per (generation, task, seed). */
  readonly heldout: readonly HeldoutRow[];
  /** The policy level: fresh Drafts per (generation, held-out task). */
  readonly drafts: readonly HeldoutDraftRow[];
  /** The held-out tasks' baselines (trivial and reference test scores) behind the normalised scores. */
  readonly baselines: Baselines;
}

const ids = (ts: readonly TaskPackage[]) => ts.map((t) => t.meta.id);

/**
 * The search level's held-out tasks: `n` of them (0 = all), in the order: tasks `first` (those this loop already
 * searched, so every generation evolves the same ones), then tasks with a normalised score (`normalisable`: their
 * reference beats their trivial baseline; the others add no figure to the measure), then by id. The order reads the
 * loop's fixed baselines only, never a checkpoint's results.
 */
export const searchSubset = (
  tasks: readonly TaskPackage[],
  n: number,
  normalisable: ReadonlySet<string> = new Set(),
  first: ReadonlySet<string> = new Set(),
): TaskPackage[] => {
  const rank = (id: string) => (first.has(id) ? 0 : normalisable.has(id) ? 1 : 2);
  return [...tasks]
    .sort((a, b) => rank(a.meta.id) - rank(b.meta.id) || (a.meta.id < b.meta.id ? -1 : a.meta.id > b.meta.id ? 1 : 0))
    .slice(0, n > 0 ? n : undefined);
};

/**
 * The closed loop (issue 13). Generation k's policy is checkpoint k (k = 0: `config.from`). For k = 0 … G−1:
 * 1. heldout: evolve each held-out task per seed with checkpoint k (equal budget), record scores (loop_heldout);
 * 2. evolve: evolve each training task per seed with checkpoint k;
 * 3. collect: collectSft from those runs (evolutionary path) and fresh drafts of checkpoint k (parallel path);
 * 4. sft: SFT from checkpoint k on that dataset;
 * 5. rl: trainRL from the SFT checkpoint on the training tasks;
 * 6. checkpoint: store checkpoint k+1 (source "loop") with its lineage (parent, runs, dataset, SFT checkpoint, RL run,
 * config hash).
 * Finally 1. for checkpoint G. Every stage is recorded (loop_stages); a loop killed in a stage resumes at that
 * stage (evolve and trainRL runs resume from their own records, finished ones are reused).
 * Refuses overlapping training and held-out task sets.
 */
export async function loop(opts: LoopOptions): Promise<LoopResult> {
  const ws = opts.workspace;
  const L = opts.loopId;
  const now = opts.now ?? Date.now;
  const emit = opts.onEvent ?? (() => {});
  const [train, held] = [ids(opts.trainTasks), ids(opts.heldoutTasks)];
  const overlap = train.filter((t) => held.includes(t));
  if (overlap.length)
    throw new LoopError(
      `training and held-out tasks overlap (${overlap.join(", ")}): held-out tasks must be unseen, ` +
        `so remove them from one set`,
    );
  if (!train.length || !held.length)
    throw new LoopError("the loop needs at least one training task and one held-out task");
  // Start, or resume with the stored config (the task sets must match).
  const cfg = await openLoop(ws, L, train, held, opts.config, now);
  const evoEvent = (event: EvoEvent) => emit({ type: "evo", event });
  const stage = stageRunner(ws, L, emit, now);
  const settings = stageSettings(cfg);
  const run: LoopRun = {
    ws,
    loopId: L,
    cfg,
    settings,
    trainTasks: opts.trainTasks,
    heldoutIds: held,
    teacher: cfg.teacher ? await resolvePolicyParams(cfg.teacher, ws) : null,
    evaluate: opts.evaluate,
    executor: opts.executor,
    evoEvent,
    stage,
    now,
  };
  try {
    const baselines = await stage(-1, "baselines", () =>
      heldoutBaselines(ws, opts.heldoutTasks, cfg.baselines, { evaluate: opts.evaluate, executor: opts.executor }),
    );
    const start = await resolvePolicyParams(cfg.from, ws);
    const checkpoints = [start.checkpoint];
    let params = start.params;
    const generations: GenerationRecord[] = [];
    // 1. for checkpoint k: the policy level (fresh drafts of every held-out task), then the search level.
    const searchTasks = searchSubset(
      opts.heldoutTasks,
      settings.heldout.searchTasks,
      normalisableTasks(baselines, metricDirections(opts.heldoutTasks)),
      new Set((await loadHeldout(ws, L)).map((r) => r.taskId)),
    );
    const heldout = (k: number) =>
      stage(k, "heldout", async () => {
        const h = settings.heldout;
        const policy = policyFor(params, checkpoints[k]!);
        const drafts = await heldoutDrafts({
          workspace: ws,
          loopId: L,
          generation: k,
          checkpoint: checkpoints[k]!,
          policy,
          tasks: h.drafts > 0 ? opts.heldoutTasks : [],
          drafts: h.drafts,
          seed: h.draftSeed,
          perRunTimeoutS: settings.evolve.perRunTimeoutS ?? 120,
          memoryMb: settings.evolve.memoryMb,
          concurrency: settings.evolve.workers ?? 1,
          baselines,
          evaluate: draftEvaluate(run, ws),
        });
        const rows = await evaluateHeldout({
          workspace: ws,
          loopId: L,
          generation: k,
          checkpoint: checkpoints[k]!,
          policy,
          tasks: searchTasks,
          seeds: h.seeds,
          evolve: { ...settings.evolve, steps: h.steps, priorsExcludeTasks: held },
          baselines,
          evaluate: evolveEvaluate(run),
          onEvent: evoEvent,
        });
        return { runs: rows.map((r) => r.runId), drafts: drafts.length };
      });
    for (let k = 0; k < cfg.generations; k++) {
      await heldout(k);
      // 2.–6. (train-generation.ts)
      const rec = await trainGeneration(run, k, checkpoints[k]!, params);
      generations.push(rec);
      checkpoints.push(rec.checkpoint);
      params = (await loadCheckpoint(ws, rec.checkpoint)).params;
    }
    await heldout(cfg.generations);
    await endRun(ws, "loops", L, "finished", undefined, now);
    return {
      loopId: L,
      config: cfg,
      checkpoints,
      generations,
      heldout: await loadHeldout(ws, L),
      drafts: await loadHeldoutDrafts(ws, L),
      baselines,
    };
  } catch (e) {
    await endRun(ws, "loops", L, "failed", undefined, now).catch(() => {});
    throw e;
  }
}
