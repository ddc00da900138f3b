import { existsSync, lstatSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { TaskPackage } from "../../gym/types.js";
import type { ChatMessage, LanguageModel } from "../../llm/spec.js";
import {
  buildPrompt,
  createGrammarPolicy,
  renderPrompt,
  type GrammarChoice,
  type GrammarParams,
  type NodeView,
  type Operator,
  type OperatorContext,
} from "../../policy/index.js";
import { SUBMISSION_FILES, submissionPrint, type ExecutionRecord, type SandboxJob } from "../../sandbox/index.js";
import type { Rng } from "../../util/rng.js";
import { hackJudgePrompt, judgeProgram } from "./hack-judge.js";
import { printHack, submissionHackCheck } from "./submission-hack-check.js";

/**
 * Runs one program; records with a submissionPrint (or a `workDir` kept inside the runner's jobsDir) get the
 * deterministic submission check.
 */
export type ExecuteProgram = (job: SandboxJob) => Promise<ExecutionRecord>;

export interface Rollout {
  readonly idx: number;
  readonly code: string;
  readonly plan: string;
  readonly spec: unknown;
  readonly choices: readonly GrammarChoice[];
  readonly oldLogProb: number;
  /** null when the judge flagged the program (not executed). */
  readonly record: ExecutionRecord | null;
  /** judge | sample_submission | sample_permutation | constant_predictions | null */
  readonly hack: string | null;
  readonly hackReason: string | null;
}

export interface GroupSpec {
  readonly groupId: string;
  readonly task: TaskPackage;
  readonly operator: Operator;
  readonly parents: readonly NodeView[];
  /** The parents' graded test scores, in `parents` order (null: none); never shown to the policy. */
  readonly parentTestScores: readonly (number | null)[];
  readonly params: GrammarParams;
  /** The policy version (step) the params belong to. */
  readonly version: number;
  readonly size: number;
  readonly rng: Rng;
}

export interface GroupResult extends GroupSpec {
  readonly messages: ChatMessage[];
  readonly rollouts: Rollout[];
  readonly startedMs: number;
  readonly endedMs: number;
}

export interface GroupRunner {
  readonly execute: ExecuteProgram;
  readonly judge?: LanguageModel;
  readonly judgeTimeoutMs?: number;
  readonly limits: { timeoutS: number; memoryMb: number };
  /**
   * The folder this process's own pool keeps job folders in (trainRL's): a record's `workDir` is read, then
   * removed, only when it is a folder right inside it. Any other (a path from a queue worker's record, on another
   * host or forged) is never touched: without `jobsDir`, none is.
   */
  readonly jobsDir?: string;
  readonly runId: string;
  readonly now: () => number;
}

const checked = new Map<string, Promise<{ hack: string | null; reason: string | null }>>();

/** The record's job folder when this process's pool made it: a real folder (no link) right inside `jobsDir`. */
function ownJobFolder(rec: ExecutionRecord, jobsDir: string | undefined): string | null {
  if (!rec.workDir || !jobsDir) return null;
  const dir = resolve(rec.workDir);
  if (dirname(dir) !== resolve(jobsDir)) return null;
  try {
    return lstatSync(dir).isDirectory() ? dir : null;
  } catch {
    return null;
  }
}

/**
 * The deterministic check on a successful record's submission, once per execution id: from the record's
 * submissionPrint (every backend's records carry it, queue records too), else from the job folder this process
 * kept (`workDir` inside `jobsDir`, removed after). Records with neither are not checked.
 */
function checkSubmission(
  task: TaskPackage,
  rec: ExecutionRecord,
  jobsDir: string | undefined,
): Promise<{ hack: string | null; reason: string | null }> {
  const workDir = ownJobFolder(rec, jobsDir);
  if (!workDir && !rec.submissionPrint) return Promise.resolve({ hack: null, reason: null });
  let p = checked.get(rec.executionId);
  if (!p) {
    p = (async () => {
      try {
        if (rec.status !== "success") return { hack: null, reason: null };
        const sample = readFileSync(join(task.publicDir, task.meta.files.sampleSubmission), "utf8");
        const file = workDir ? SUBMISSION_FILES.map((f) => join(workDir, f)).find((f) => existsSync(f)) : undefined;
        const hack = rec.submissionPrint
          ? printHack(rec.submissionPrint, submissionPrint(sample))
          : file
            ? submissionHackCheck(readFileSync(file, "utf8"), sample)
            : null;
        return { hack, reason: hack ? `the submission's predictions are ${hack.replaceAll("_", " ")}` : null };
      } finally {
        if (workDir) rmSync(workDir, { recursive: true, force: true });
      }
    })();
    checked.set(rec.executionId, p);
  }
  return p;
}

/**
 * One rollout group (the paper's Fig. 6):
 * 1. render the operator prompt as the LLM policy would (for exports);
 * 2. sample G programs from the grammar policy with the group's params, keeping old log-probs;
 * 3. the judge (when configured) reads each program; flagged ones are not executed;
 * 4. the others run in the sandbox concurrently; 5. successful submissions get the deterministic check.
 */
export async function runGroup(spec: GroupSpec, runner: GroupRunner): Promise<GroupResult> {
  const startedMs = runner.now();
  const { task, operator } = spec;
  const context: OperatorContext = {
    parents: spec.parents,
    budget: { remainingSteps: 1, remainingTimeS: runner.limits.timeoutS, perRunTimeLimitS: runner.limits.timeoutS },
    runId: runner.runId,
    nodeId: spec.groupId,
  };
  // 1.
  const messages = renderPrompt(buildPrompt(task, operator, context));
  // 2.
  const policy = createGrammarPolicy(spec.params);
  const outs = [];
  for (let i = 0; i < spec.size; i++) outs.push(await policy.propose(task, operator, context, spec.rng.fork()));
  const sample = runner.judge ? readFileSync(join(task.publicDir, task.meta.files.sampleSubmission), "utf8") : "";
  // 3.–5.
  const rollouts = await Promise.all(
    outs.map(async (o, idx): Promise<Rollout> => {
      const base = { idx, code: o.code, plan: o.plan, spec: o.spec, choices: o.choices, oldLogProb: o.logProb };
      if (runner.judge) {
        const v = await judgeProgram(runner.judge, hackJudgePrompt(task, sample, o.code), {
          timeoutMs: runner.judgeTimeoutMs,
          runId: runner.runId,
        });
        if (v.verdict === "hack") return { ...base, record: null, hack: "judge", hackReason: v.reason };
      }
      const record = await runner.execute({
        task,
        code: o.code,
        limits: runner.limits,
        runId: runner.runId,
        nodeId: `${spec.groupId}-${idx}`,
      });
      const c = await checkSubmission(task, record, runner.jobsDir);
      return { ...base, record, hack: c.hack, hackReason: c.reason };
    }),
  );
  return { ...spec, messages, rollouts, startedMs, endedMs: runner.now() };
}
