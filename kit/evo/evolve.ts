import type { TaskPackage } from "../gym/types.js";
import { recordTaskReview } from "../gym/index.js";
import type { LanguageModel } from "../llm/spec.js";
import { createGrammarPolicy } from "../policy/index.js";
import type { Policy } from "../policy/types.js";
import { runSandbox } from "../sandbox/index.js";
import type { ExecutionRecord, SandboxJob } from "../sandbox/types.js";
import { endRun, type Workspace } from "../store/index.js";
import { contextChars } from "./build-context.js";
import type { EvolveConfig, EvolveConfigInput } from "./config.js";
import type { EvoEvent } from "./events.js";
import { nodeStep, planStep } from "./node-step.js";
import { openEvolveRun } from "./open-evolve-run.js";
import { preciseNow } from "./precise-clock.js";
import { distillPriors } from "./priors.js";
import { budgetStop, sandboxSeconds } from "./run-budget.js";
import { champion, championColumns, summarise, type RunSummary } from "./run-summary.js";
import type { EvoNode } from "./types.js";
import { runWorkers, serialised, stepsToDo } from "./worker-pool.js";

export interface EvolveOptions {
  readonly task: TaskPackage;
  /** Writes the programs: default the embedded grammar policy (offline). */
  readonly policy?: Policy;
  readonly workspace: Workspace;
  /** Runs one program: default the sandbox's runSandbox; any function returning an ExecutionRecord. */
  readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  readonly config?: EvolveConfigInput;
  /** Continue this run from its workspace (its stored config is used; `config.steps` may extend it). */
  readonly resume?: string;
  readonly runId?: string;
  /** Memory model for on-demand summaries (absent → deterministic card summaries). */
  readonly memoryModel?: LanguageModel;
  /** The clock (ms since the epoch) of budgets, timings and the run row; default: precise wall time. */
  readonly now?: () => number;
  readonly onEvent?: (e: EvoEvent) => void;
  readonly signal?: AbortSignal;
}

export interface EvolveResult {
  readonly runId: string;
  readonly config: EvolveConfig;
  readonly nodes: readonly EvoNode[];
  readonly champion: EvoNode | null;
  readonly summary: RunSummary;
}

/**
 * Long-horizon search (the paper's Fig. 5). Each step (node-step.ts): the harness picks an operator and parents from
 * the stored tree; the context is built (memory synthesised on demand); the policy writes a program; it
 * is executed; the node, its execution record and its experience card are written in one transaction (an
 * evaluate that stores records itself writes the record first; a resume detaches a record whose node a
 * kill prevented, see detachOrphanExecutions). `workers` > 1 keeps that many steps in flight (Evo-Max,
 * worker-pool.ts).
 */
export async function evolve(opts: EvolveOptions): Promise<EvolveResult> {
  const { task, workspace: ws } = opts;
  const policy = opts.policy ?? createGrammarPolicy();
  const evaluate = opts.evaluate ?? ((job: SandboxJob) => runSandbox(job));
  const now = opts.now ?? preciseNow;
  const emit = opts.onEvent ?? (() => {});
  const t0 = now();
  const elapsedS = () => (now() - t0) / 1000;
  // 1. Start or resume the run (kit/store/run-lifecycle.ts); a resume continues from its stored nodes.
  const { runId, cfg, nodes, resumed } = await openEvolveRun(ws, {
    task,
    policyName: policy.name,
    config: opts.config,
    resume: opts.resume,
    runId: opts.runId,
    startedAt: t0,
  });
  // From here on the run is `running`: whatever fails ends it `failed` (step 4), never leaves it running.
  const locked = serialised();
  let stopReason: RunSummary["stopReason"] = "steps";
  let failed: unknown = null;
  try {
    failed = await search();
  } catch (e) {
    failed = e;
  }

  // 4. End the run with its summary and final champion: failed (then rethrown), killed (aborted) or finished.
  const summary = summarise(nodes, {
    runId,
    taskId: task.meta.id,
    harness: cfg.harness,
    policy: policy.name,
    seed: cfg.seed,
    wallS: elapsedS(),
    stopReason,
  });
  const ended = failed ? { ...summary, error: String(failed) } : summary;
  await locked(() => {
    const status = failed ? "failed" : stopReason === "aborted" ? "killed" : "finished";
    return endRun(ws, "runs", runId, status, ended, now, championColumns(champion(nodes)));
  });
  if (failed) throw failed;
  emit({ type: "run-end", summary });
  return { runId, config: cfg, nodes, champion: champion(nodes), summary };

  /** Steps 2 and 3; the first failure of a worker is returned, one before the workers start is thrown. */
  async function search(): Promise<unknown> {
    // The task's row (modality, metric direction) lets evaluate() grade and group this run.
    await recordTaskReview(ws, task, {});
    emit({ type: "run-start", runId, resumed, nodes: nodes.length, steps: cfg.steps });
    const priors = cfg.priors ? await distillPriors(ws, task.meta.id, 5, cfg.priorsExcludeTasks) : "";

    // 2. Steps still to do, and the budgets checked before each.
    const todo = stepsToDo(nodes, cfg.steps);
    const budgetLeft = (): boolean => {
      const spent = { aborted: !!opts.signal?.aborted, elapsedS, sandboxS: () => sandboxSeconds(nodes) };
      const stop = budgetStop(cfg, spent);
      if (stop) stopReason = stop;
      return stop === null;
    };

    // 3. Workers: each takes the next step, plans it and makes its node; the store is one serialised section.
    return runWorkers({
      workers: cfg.workers,
      todo,
      nodes,
      now,
      budgetLeft,
      plan: (step, last, inFlight) => planStep(cfg, nodes, step, last, inFlight),
      run: nodeStep({
        task,
        policy,
        evaluate,
        ws,
        runId,
        cfg,
        nodes,
        priors,
        memoryModel: opts.memoryModel,
        now,
        elapsedS,
        locked,
        emit,
      }),
      onNode: (step, action, { node, card, ctx }) => {
        const best = champion(nodes);
        const mins = (now() - t0) / 60000;
        emit({
          type: "node",
          step,
          node,
          card,
          action,
          contextChars: contextChars(ctx),
          done: nodes.length,
          total: cfg.steps,
          best: best?.validScore ?? null,
          nodesPerMin: mins > 0 ? nodes.length / mins : 0,
        });
      },
    });
  }
}
