import { setMaxListeners } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TaskPackage } from "../../gym/types.js";
import type { LanguageModel } from "../../llm/spec.js";
import type { GrammarParams } from "../../policy/grammar/index.js";
import type { Operator } from "../../policy/types.js";
import { SandboxPool, type Executor } from "../../sandbox/index.js";
import { endRun, type Workspace } from "../../store/index.js";
import { saveCheckpoint } from "../checkpoints.js";
import { ErlError } from "../errors.js";
import { scheduleGroups } from "./group-scheduler.js";
import { openRlRun } from "./open-rl-run.js";
import type { RlStepMetrics } from "./rl-step.js";
import { RlConfig, type RlConfigInput } from "./rl-config.js";
import { RlTrainer } from "./rl-trainer.js";
import { checkStaticBounds, rewardInfoOf, runTaskScales } from "./task-scales.js";
import { readTaskScales, writeTaskScales } from "./task-scale-store.js";
import type { ExecuteProgram } from "./rollout-group.js";

export interface TrainRlOptions {
  readonly workspace: Workspace;
  readonly tasks: readonly TaskPackage[];
  /** Start params: "default", a checkpoint name or a params .json file (ignored on resume). */
  readonly from?: string;
  /** Final checkpoint name; step k is stored as `<to>-step<k>`. */
  readonly to: string;
  readonly config?: RlConfigInput;
  /** Continue this run id after a kill (its stored config is used; `config.steps` may extend it). */
  readonly resume?: string;
  readonly runId?: string;
  /**
   * Runs one program, e.g. the queue client's evaluate (kit/sandbox queueEvaluate), whose workers bound how many
   * run at once. Default: a SandboxPool of `workers` slots on `executor`. Every record with a submissionPrint gets
   * the deterministic submission check.
   */
  readonly execute?: ExecuteProgram;
  /** The default pool's executor (local or Docker, e.g. with a warm start); ignored with `execute`. */
  readonly executor?: Executor;
  /** Pre-execution reward-hacking judge (absent: only the deterministic post-execution check). */
  readonly judge?: LanguageModel;
  readonly now?: () => number;
  readonly onEvent?: (e: RlEvent) => void;
  readonly signal?: AbortSignal;
}

export type RlEvent =
  | {
      readonly type: "run-start";
      readonly runId: string;
      readonly resumed: boolean;
      readonly step: number;
      readonly steps: number;
    }
  | {
      readonly type: "group";
      readonly groupId: string;
      readonly taskId: string;
      readonly operator: Operator;
      readonly version: number;
      readonly wallS: number;
    }
  | { readonly type: "group-dropped"; readonly groupId: string; readonly lag: number }
  | { readonly type: "step"; readonly metrics: RlStepMetrics; readonly checkpoint: string }
  | { readonly type: "run-end"; readonly runId: string; readonly checkpoint: string };

export interface TrainRlResult {
  readonly runId: string;
  readonly checkpoint: string;
  readonly params: GrammarParams;
  readonly steps: readonly RlStepMetrics[];
  readonly perTask: Record<string, number>;
}

/**
 * Execution-grounded RL of the grammar policy (the paper's Fig. 6):
 * 1. start (or resume from the last stored step: its checkpoint, parent store, history and counts), refusing a
 *    static-bounds rule a task cannot have; then the tasks' static bounds (task-scales.ts: the trivial
 *    baseline runs once per task when the rule uses it), stored in rl_task_bounds;
 * 2. plan groups: the task with the fewest groups so far, an operator from the mix, parents from
 *    the store (∝ fitness), the current params and their version;
 * 3. generate and execute groups (sync: a whole batch per step; async: up to `inFlightGroups` at
 *    once, each sampled from the params current when it starts);
 * 4. consume a batch of completed groups (async: dropping those lagging more than `maxLag`
 *    versions): rewards → advantages → GSPO; store the checkpoint, then the step atomically;
 * 5. store the final checkpoint `to`.
 * Steps 2–4 are RlTrainer's (rl-trainer.ts), driven by scheduleGroups (group-scheduler.ts).
 */
export async function trainRL(opts: TrainRlOptions): Promise<TrainRlResult> {
  const ws = opts.workspace;
  const now = opts.now ?? Date.now;
  const emit = opts.onEvent ?? (() => {});
  if (opts.tasks.length === 0) throw new ErlError("trainRL needs at least one task: pass --tasks <ids|dirs>");
  const from = opts.from ?? "default";
  // 1. Start or resume (open-rl-run.ts); a new run's static rule is checked before its row is written.
  if (!opts.resume) checkStaticBounds(opts.tasks, RlConfig.parse(opts.config ?? {}));
  const start = await openRlRun(ws, opts, now);
  const { runId, cfg } = start;
  emit({ type: "run-start", runId, resumed: !!opts.resume, step: start.version, steps: cfg.steps });
  const batchSize = cfg.groupsPerStep ?? opts.tasks.length;
  const jobsDir = mkdtempSync(join(tmpdir(), "openmle-rl-"));
  const pool = opts.execute ? null : new SandboxPool({ cpuSlots: cfg.workers, jobsDir, executor: opts.executor });
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // one listener per pooled job
  // One thread per program, whichever backend runs it (a group's programs run side by side).
  const execute: ExecuteProgram = opts.execute
    ? (job) => opts.execute!({ ...job, limits: { ...job.limits, cpus: 1 } })
    : (job) => pool!.submit({ ...job, limits: { ...job.limits, cpus: 1 }, signal: abort.signal });
  const runner = {
    execute,
    judge: opts.judge,
    judgeTimeoutMs: cfg.judgeTimeoutMs,
    limits: { timeoutS: cfg.perRunTimeoutS, memoryMb: cfg.memoryMb },
    // Only the own pool's job folders are read and removed (rollout-group.ts); `execute`'s records keep none.
    ...(pool ? { jobsDir } : {}),
    runId,
    now,
  };
  let status: "finished" | "failed" | "killed" = "finished";
  let trainer: RlTrainer | undefined;
  try {
    if (opts.resume) checkStaticBounds(opts.tasks, cfg); // a new run's was checked before its row was written
    const scales = await runTaskScales(opts.tasks, cfg, execute, await readTaskScales(ws, runId));
    await writeTaskScales(ws, runId, scales);
    const info = new Map(opts.tasks.map((t, i) => [t.meta.id, rewardInfoOf(t, scales[i]!)]));
    const t0 = now();
    trainer = new RlTrainer(start, { ws, tasks: opts.tasks, info, from, to: opts.to, runner, t0, now, emit });
    // 2.–4. Plan, execute and consume groups.
    const inFlight = cfg.inFlightGroups ?? 2 * batchSize;
    await scheduleGroups(trainer, {
      mode: cfg.mode,
      steps: cfg.steps,
      batchSize,
      inFlight,
      maxLag: cfg.maxLag,
      signal: opts.signal,
      abort: () => abort.abort(),
    });
    if (opts.signal?.aborted) status = "killed";
  } catch (e) {
    status = "failed";
    abort.abort();
    await endRun(ws, "rl_runs", runId, status, { error: String(e), steps: trainer?.version ?? start.version }, now);
    throw e;
  } finally {
    rmSync(jobsDir, { recursive: true, force: true });
  }
  // 5. The final checkpoint.
  const version = trainer!.version;
  if (status === "finished") {
    await saveCheckpoint(
      ws,
      {
        name: opts.to,
        params: trainer!.params,
        parent: version ? `${opts.to}-step${version}` : from,
        source: "rl",
        dataset: runId,
        config: cfg,
        metrics: { steps: version },
      },
      { replace: !!opts.resume },
    );
  }
  const perTask = Object.fromEntries(trainer!.perTask);
  await endRun(ws, "rl_runs", runId, status, { steps: version, perTask, last: trainer!.steps.at(-1) ?? null }, now);
  emit({ type: "run-end", runId, checkpoint: opts.to });
  return { runId, checkpoint: opts.to, params: trainer!.params, steps: trainer!.steps, perTask };
}
