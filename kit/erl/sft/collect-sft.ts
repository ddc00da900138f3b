import { endedRunIds, readStoredRun } from "../../evo/index.js";
import { loadTask, resolveTask, storedTaskDir } from "../../gym/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { LanguageModel } from "../../llm/spec.js";
import type { LlmPolicyConfigInput } from "../../policy/llm/index.js";
import { runSandbox } from "../../sandbox/index.js";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";
import { configHash, type Workspace } from "../../store/index.js";
import { composition, type CompositionRow } from "./composition.js";
import { CollectSftConfig, type CollectSftConfigInput } from "./sft-config.js";
import { assertDatasetFree, saveDataset } from "./dataset-store.js";
import { dedupExamples } from "./dedup.js";
import { ErlError } from "../errors.js";
import { evolutionSegments, type SegmentReport } from "./evolution-segments.js";
import { parallelDrafts, type ParallelEvent, type ParallelTaskStats, type Teachers } from "./parallel-drafts.js";
import { tokenFilter, type SftExample } from "./sft-example.js";

export type CollectEvent =
  | ParallelEvent
  | { readonly type: "segment"; readonly segment: SegmentReport }
  | { readonly type: "run-skipped"; readonly runId: string; readonly reason: string }
  | { readonly type: "stored"; readonly dataset: string; readonly examples: number };

export interface CollectSftOptions {
  readonly workspace: Workspace;
  /** Name of the dataset to write (refused when it exists, unless `replace`). */
  readonly dataset: string;
  readonly replace?: boolean;
  /** Parallel path: the tasks to draft for (with `teachers`); also how stored runs' tasks are found before the tasks
   * table and built-in ids. */
  readonly tasks?: readonly TaskPackage[];
  readonly teachers?: Teachers;
  /** Evolutionary path: run ids, or "all" for every finished run in the workspace (runs without nodes or threshold are
   * skipped). */
  readonly runs?: readonly string[] | "all";
  /** The causal-inheritance judge; absent → judge "skipped" (every step of an accepted segment kept). */
  readonly judge?: LanguageModel;
  readonly config?: CollectSftConfigInput;
  /** How the prompts are rendered (the LLM policy's settings). */
  readonly llmPolicy?: LlmPolicyConfigInput;
  /** Runs one program (default runSandbox storing its record in the workspace). */
  readonly evaluate?: (job: SandboxJob) => Promise<ExecutionRecord>;
  readonly onEvent?: (e: CollectEvent) => void;
}

export interface CollectSftResult {
  readonly dataset: string;
  readonly examples: readonly SftExample[];
  readonly composition: readonly CompositionRow[];
  readonly parallel: readonly ParallelTaskStats[];
  readonly segments: readonly SegmentReport[];
  readonly skippedRuns: readonly { readonly runId: string; readonly reason: string }[];
  readonly judge: string;
  /** Examples dropped at the merge (duplicates, over the token limit), and candidates (parallel drafts and segment
   * endpoints) dropped by the baseline filter: validation–test gap, no printed validation, no graded test score. */
  readonly dropped: { readonly duplicates: number; readonly overTokens: number; readonly baselineFilter: number };
  readonly config: CollectSftConfig;
  readonly configHash: string;
  readonly wallS: number;
}

/** Candidates the baseline filter dropped, over both paths. */
function baselineDrops(parallel: readonly ParallelTaskStats[], segments: readonly SegmentReport[]): number {
  const p = parallel.reduce(
    (s, t) => s + (t.reasons["validation-test-gap"] ?? 0) + (t.reasons["no-validation"] ?? 0),
    0,
  );
  return p + segments.filter((g) => g.reason === "validation-test-gap" || g.reason === "no-test-score").length;
}

async function taskOfRun(ws: Workspace, taskId: string, cache: Map<string, TaskPackage>): Promise<TaskPackage> {
  const hit = cache.get(taskId);
  if (hit) return hit;
  const dir = await storedTaskDir(ws, taskId);
  let task: TaskPackage;
  try {
    task = dir ? await loadTask(dir) : await resolveTask(taskId);
  } catch (e) {
    throw new ErlError(
      `task ${taskId} of a stored run cannot be ` +
        `loaded (${(e as Error).message.split("\n")[0]}): restore its folder or pass its runs elsewhere`,
      { cause: e },
    );
  }
  cache.set(taskId, task);
  return task;
}

/**
 * Execution-grounded SFT collection (docs/paper-map.md: SFT collection):
 * 1. refuse an existing dataset name unless `replace` (before any work);
 * 2. parallel path: budget-adaptive drafts per task from the teachers, baseline-filtered, kept with graded
 *    reward > 0 and jointly ranked by it (parallel-drafts.ts);
 * 3. evolutionary path: accepted, baseline-filtered segments of stored runs, steps chosen by the judge
 *    (evolution-segments.ts);
 * 4. merge (parallel first), exact de-duplication over normalised messages, Qwen3 template token filter;
 * 5. store the examples in `datasets` in one transaction, with the config, its hash and the judge.
 * Nothing is stored when any step fails.
 */
export async function collectSft(opts: CollectSftOptions): Promise<CollectSftResult> {
  const t0 = Date.now();
  const ws = opts.workspace;
  const cfg = CollectSftConfig.parse(opts.config ?? {});
  const emit = opts.onEvent ?? (() => {});
  // 1.
  await assertDatasetFree(ws, opts.dataset, !!opts.replace);
  if (!(opts.tasks?.length && opts.teachers) && !opts.runs)
    throw new ErlError("nothing to collect: pass --tasks (parallel drafts) and/or --runs/--all-runs (evolution trees)");
  const judge = opts.judge ? `llm:${opts.judge.modelId}` : "skipped";
  const recorded = {
    ...cfg,
    tasks: opts.tasks?.map((t) => t.meta.id) ?? [],
    teachers: opts.teachers
      ? [opts.teachers.primary.name, ...(opts.teachers.secondary ? [opts.teachers.secondary.name] : [])]
      : [],
    runs: opts.runs ?? [],
    judge,
  };
  const hash = configHash(recorded);
  const evaluate = opts.evaluate ?? ((job: SandboxJob) => runSandbox({ ...job, workspace: ws }));

  // 2.
  const parallel: ParallelTaskStats[] = [];
  const fromParallel: SftExample[] = [];
  if (opts.tasks?.length && opts.teachers) {
    for (const task of opts.tasks) {
      const r = await parallelDrafts(task, opts.teachers, cfg, { evaluate, llmPolicy: opts.llmPolicy, onEvent: emit });
      parallel.push(r.stats);
      fromParallel.push(...r.examples);
    }
  }

  // 3.
  const segments: SegmentReport[] = [];
  const fromEvolution: SftExample[] = [];
  const skippedRuns: { runId: string; reason: string }[] = [];
  if (opts.runs) {
    const all = opts.runs === "all";
    const runIds = all ? await endedRunIds(ws) : opts.runs;
    const tasks = new Map<string, TaskPackage>((opts.tasks ?? []).map((t) => [t.meta.id, t]));
    for (const runId of runIds) {
      const row = await readStoredRun(ws, runId);
      if (!row)
        throw new ErlError(
          `run "${runId}" is not in workspace ${ws.dir}: list runs with openmle ` +
            `workspace query ${ws.dir} "SELECT run_id FROM runs"`,
        );
      try {
        const task = await taskOfRun(ws, row.task_id, tasks);
        const r = await evolutionSegments(ws, runId, task, cfg, {
          judge: opts.judge,
          llmPolicy: opts.llmPolicy,
          onSegment: (segment) => emit({ type: "segment", segment }),
        });
        segments.push(...r.segments);
        fromEvolution.push(...r.examples);
      } catch (e) {
        // --all-runs: a run without nodes or without a threshold is skipped and reported; named runs fail.
        if (!all || !(e instanceof ErlError) || e.name === "JudgeError") throw e;
        skippedRuns.push({ runId, reason: e.message });
        emit({ type: "run-skipped", runId, reason: e.message });
      }
    }
  }

  // 4.
  const { kept: unique, duplicates } = dedupExamples([...fromParallel, ...fromEvolution]);
  const { kept: examples, overLimit } = await tokenFilter(unique, cfg.maxTokens);

  // 5.
  await saveDataset(
    ws,
    opts.dataset,
    examples,
    { config: recorded, configHash: hash, judge, parallel },
    { replace: opts.replace },
  );
  emit({ type: "stored", dataset: opts.dataset, examples: examples.length });
  return {
    dataset: opts.dataset,
    examples,
    composition: composition(examples),
    parallel,
    segments,
    skippedRuns,
    judge,
    dropped: { duplicates, overTokens: overLimit, baselineFilter: baselineDrops(parallel, segments) },
    config: cfg,
    configHash: hash,
    wallS: (Date.now() - t0) / 1000,
  };
}
