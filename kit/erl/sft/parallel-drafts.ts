import type { TaskPackage } from "../../gym/types.js";
import type { LlmPolicyConfigInput } from "../../policy/llm/index.js";
import type { OperatorContext, Policy, PolicyOutput } from "../../policy/types.js";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";
import { createRng } from "../../util/rng.js";
import type { CollectSftConfig } from "./sft-config.js";
import { jointRanking, type RankedCandidate } from "./joint-ranking.js";
import { exampleMessages, grammarChoicesOf, type SftExample } from "./sft-example.js";

export interface Teachers {
  readonly primary: Policy;
  readonly secondary?: Policy;
}

export interface DraftCandidate {
  readonly id: string;
  readonly teacher: "primary" | "secondary";
  readonly teacherName: string;
  readonly attempt: number;
  readonly score: number | null;
  readonly status: string;
  readonly output: PolicyOutput;
  readonly sandboxS: number;
}

/** Per task: how many attempts it took and why it stopped (easy tasks stop early). */
export interface ParallelTaskStats {
  readonly taskId: string;
  readonly attempts: number;
  readonly batches: number;
  readonly valid: number;
  readonly kept: number;
  readonly sandboxS: number;
  readonly stopReason: "quota" | "attempts" | "sandbox-time";
}

export type ParallelEvent =
  | {
      readonly type: "attempt";
      readonly taskId: string;
      readonly attempt: number;
      readonly teacher: string;
      readonly status: string;
      readonly score: number | null;
    }
  | { readonly type: "task-done"; readonly stats: ParallelTaskStats };

/** The draft context: no parents, the per-run time limit as budget. */
export const draftContext = (perRunTimeoutS: number): OperatorContext => ({
  parents: [],
  budget: { remainingSteps: 1, remainingTimeS: perRunTimeoutS, perRunTimeLimitS: perRunTimeoutS },
});

/** One seed per (task, attempt), so adding tasks does not change another task's draws. */
function attemptSeed(seed: number, taskId: string, attempt: number): number {
  let h = seed >>> 0;
  for (const ch of `${taskId}#${attempt}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/**
 * The parallel path for one task (spec §3.1), budget-adaptive:
 * 1. attempts come in batches of `batchSize`, alternating primary and secondary teacher;
 * 2. each attempt drafts a complete program and executes it;
 * 3. after each batch the candidates are ranked jointly (jointRanking); stop when `perTaskCap`
 *    are kept, or the attempt budget or the sandbox-time budget is spent;
 * 4. the kept candidates become Draft examples rendered with the LLM policy's prompt.
 */
export async function parallelDrafts(
  task: TaskPackage,
  teachers: Teachers,
  cfg: CollectSftConfig,
  opts: {
    evaluate: (job: SandboxJob) => Promise<ExecutionRecord>;
    llmPolicy?: LlmPolicyConfigInput;
    onEvent?: (e: ParallelEvent) => void;
  },
): Promise<{ examples: SftExample[]; stats: ParallelTaskStats; ranking: RankedCandidate<DraftCandidate>[] }> {
  const ctx = draftContext(cfg.perRunTimeoutS);
  const hib = task.meta.higherIsBetter;
  const candidates: DraftCandidate[] = [];
  let sandboxS = 0;
  let batches = 0;
  let stopReason: ParallelTaskStats["stopReason"] = "attempts";
  const keptNow = () =>
    jointRanking(candidates, { cap: cfg.perTaskCap, higherIsBetter: hib }).filter((r) => r.kept).length;

  const attemptOnce = async (attempt: number): Promise<DraftCandidate> => {
    const which = teachers.secondary && attempt % 2 === 1 ? "secondary" : "primary";
    const policy = which === "secondary" ? teachers.secondary! : teachers.primary;
    const output = await policy.propose(task, "draft", ctx, createRng(attemptSeed(cfg.seed, task.meta.id, attempt)));
    const rec = await opts.evaluate({
      task,
      code: output.code,
      limits: { timeoutS: cfg.perRunTimeoutS, memoryMb: cfg.memoryMb },
    });
    const score =
      rec.status === "success" && rec.validScore !== null && Number.isFinite(rec.validScore) ? rec.validScore : null;
    opts.onEvent?.({ type: "attempt", taskId: task.meta.id, attempt, teacher: policy.name, status: rec.status, score });
    return {
      id: `${task.meta.id}#${attempt}`,
      teacher: which,
      teacherName: policy.name,
      attempt,
      score,
      status: rec.status,
      output,
      sandboxS: rec.wallS,
    };
  };

  while (true) {
    if (keptNow() >= cfg.perTaskCap) {
      stopReason = "quota";
      break;
    }
    if (candidates.length >= cfg.maxAttempts) {
      stopReason = "attempts";
      break;
    }
    if (cfg.maxSandboxS > 0 && sandboxS >= cfg.maxSandboxS) {
      stopReason = "sandbox-time";
      break;
    }
    const n = Math.min(cfg.batchSize, cfg.maxAttempts - candidates.length);
    const ids = Array.from({ length: n }, (_, i) => candidates.length + i);
    const batch: DraftCandidate[] = [];
    for (let i = 0; i < ids.length; i += cfg.concurrency)
      batch.push(...(await Promise.all(ids.slice(i, i + cfg.concurrency).map(attemptOnce))));
    candidates.push(...batch);
    sandboxS += batch.reduce((s, c) => s + c.sandboxS, 0);
    batches++;
  }

  const ranking = jointRanking(candidates, { cap: cfg.perTaskCap, higherIsBetter: hib });
  const examples: SftExample[] = ranking
    .filter((r) => r.kept)
    .sort((a, b) => a.rank! - b.rank!)
    .map(({ candidate: c }) => ({
      taskId: task.meta.id,
      operator: "draft",
      path: "parallel",
      teacher: c.teacherName,
      score: c.score,
      sourceRun: null,
      sourceNode: c.id,
      messages: exampleMessages(task, "draft", ctx, c.output.plan, c.output.code!, opts.llmPolicy),
      program: c.output.code!,
      choices: grammarChoicesOf(task, "draft", ctx, c.output.code!),
      judgeReason: null,
    }));
  const stats: ParallelTaskStats = {
    taskId: task.meta.id,
    attempts: candidates.length,
    batches,
    valid: candidates.filter((c) => c.score !== null).length,
    kept: examples.length,
    sandboxS,
    stopReason,
  };
  opts.onEvent?.({ type: "task-done", stats });
  return { examples, stats, ranking };
}
