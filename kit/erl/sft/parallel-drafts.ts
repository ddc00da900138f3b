import type { TaskPackage } from "../../gym/types.js";
import type { LlmPolicyConfigInput } from "../../policy/llm/index.js";
import type { OperatorContext, Policy, PolicyOutput } from "../../policy/types.js";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";
import { baselineProgram } from "../../eval/index.js";
import { createRng, keyedSeed } from "../../util/rng.js";
import { taskRewardInfo } from "../rl/index.js";
import type { CollectSftConfig } from "./sft-config.js";
import { draftBounds, type DraftBounds } from "./graded-reward.js";
import { jointRanking, type JointRankingOptions, type RankedCandidate, type RankReason } from "./joint-ranking.js";
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
  /** Printed validation score of a successful run; null otherwise. */
  readonly validScore: number | null;
  /** Graded test score of a successful run; null otherwise (the draft failed). */
  readonly testScore: number | null;
  readonly status: string;
  readonly output: PolicyOutput;
  readonly sandboxS: number;
}

/** Per task: how many attempts it took and why it stopped (easy tasks stop early). */
export interface ParallelTaskStats {
  readonly taskId: string;
  readonly attempts: number;
  readonly batches: number;
  /** Successful runs with a graded test score. */
  readonly valid: number;
  readonly kept: number;
  /** Drafts per ranking reason (kept, invalid, validation-test-gap, zero-reward, ...); absent reasons are 0. */
  readonly reasons: Readonly<Partial<Record<RankReason, number>>>;
  /** The trivial baseline's graded score when it was run (trivialFloor, no leaderboard), else null. */
  readonly trivialScore: number | null;
  /** Where the reward's static worst bound came from. */
  readonly worstFrom: DraftBounds["worstFrom"];
  /** Sandbox seconds, the trivial baseline's run included. */
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
      /** Printed validation score (null when none or the run failed). */
      readonly score: number | null;
      readonly testScore: number | null;
    }
  | { readonly type: "task-done"; readonly stats: ParallelTaskStats };

/** The draft context: no parents, the per-run time limit as budget. */
export const draftContext = (perRunTimeoutS: number): OperatorContext => ({
  parents: [],
  budget: { remainingSteps: 1, remainingTimeS: perRunTimeoutS, perRunTimeLimitS: perRunTimeoutS },
});

function countReasons(ranking: readonly RankedCandidate<DraftCandidate>[]): Partial<Record<RankReason, number>> {
  const out: Partial<Record<RankReason, number>> = {};
  for (const r of ranking) out[r.reason] = (out[r.reason] ?? 0) + 1;
  return out;
}

/**
 * The parallel path for one task (docs/paper-map.md: SFT collection), budget-adaptive:
 * 1. attempts come in batches of `batchSize`, alternating primary and secondary teacher;
 * 2. each attempt drafts a complete program and executes it;
 * 3. after each batch the candidates are ranked jointly (jointRanking: baseline filter, graded reward > 0,
 *    ranked by that reward); stop when `perTaskCap` are kept (once `minAttempts` were made), or the attempt budget
 *    or the sandbox-time budget is spent;
 * 4. the kept candidates become Draft examples rendered with the LLM policy's prompt.
 * Before step 1, a task without a leaderboard runs the trivial baseline once (trivialFloor) for the reward's
 * static worst bound (graded-reward.ts draftBounds).
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
  const limits = { timeoutS: cfg.perRunTimeoutS, memoryMb: cfg.memoryMb };
  const info = taskRewardInfo(task);
  const candidates: DraftCandidate[] = [];
  let sandboxS = 0;
  let batches = 0;
  let stopReason: ParallelTaskStats["stopReason"] = "attempts";

  let trivialScore: number | null = null;
  const csv = task.meta.files.train.endsWith(".csv") && task.meta.files.test.endsWith(".csv");
  if (cfg.trivialFloor && info.staticWorst === undefined && csv) {
    const rec = await opts.evaluate({ task, code: baselineProgram(task, "trivial"), limits });
    sandboxS += rec.wallS;
    trivialScore = rec.status === "success" && Number.isFinite(rec.testScore) ? rec.testScore : null;
  }
  const bounds = draftBounds(info, trivialScore);
  const rankOpts: JointRankingOptions = {
    cap: cfg.perTaskCap,
    higherIsBetter: task.meta.higherIsBetter,
    maxGap: cfg.maxValidationTestGap,
    metricRange: info.metricRange,
    leaderboardRange: info.leaderboardRange,
    bounds,
  };
  const keptNow = () => jointRanking(candidates, rankOpts).filter((r) => r.kept).length;

  const attemptOnce = async (attempt: number): Promise<DraftCandidate> => {
    const which = teachers.secondary && attempt % 2 === 1 ? "secondary" : "primary";
    const policy = which === "secondary" ? teachers.secondary! : teachers.primary;
    const output = await policy.propose(
      task,
      "draft",
      ctx,
      createRng(keyedSeed(cfg.seed, `${task.meta.id}#${attempt}`)),
    );
    const rec = await opts.evaluate({ task, code: output.code, limits });
    const ok = (x: number | null) => (rec.status === "success" && x !== null && Number.isFinite(x) ? x : null);
    const [validScore, testScore] = [ok(rec.validScore), ok(rec.testScore)];
    opts.onEvent?.({
      type: "attempt",
      taskId: task.meta.id,
      attempt,
      teacher: policy.name,
      status: rec.status,
      score: validScore,
      testScore,
    });
    return {
      id: `${task.meta.id}#${attempt}`,
      teacher: which,
      teacherName: policy.name,
      attempt,
      validScore,
      testScore,
      status: rec.status,
      output,
      sandboxS: rec.wallS,
    };
  };

  while (true) {
    if (keptNow() >= cfg.perTaskCap && candidates.length >= cfg.minAttempts) {
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

  const ranking = jointRanking(candidates, rankOpts);
  const examples: SftExample[] = ranking
    .filter((r) => r.kept)
    .sort((a, b) => a.rank! - b.rank!)
    .map(({ candidate: c }) => ({
      taskId: task.meta.id,
      operator: "draft",
      path: "parallel",
      teacher: c.teacherName,
      score: c.validScore,
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
    valid: candidates.filter((c) => c.testScore !== null).length,
    kept: examples.length,
    reasons: countReasons(ranking),
    trivialScore,
    worstFrom: bounds.worstFrom,
    sandboxS,
    stopReason,
  };
  opts.onEvent?.({ type: "task-done", stats });
  return { examples, stats, ranking };
}
