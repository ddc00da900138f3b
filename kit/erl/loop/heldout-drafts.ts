import { recordTaskReview } from "../../gym/index.js";
import type { TaskPackage } from "../../gym/types.js";
import type { Policy } from "../../policy/types.js";
import type { ExecutionRecord, SandboxJob } from "../../sandbox/types.js";
import type { Workspace } from "../../store/index.js";
import { createRng, keyedSeed } from "../../util/index.js";
import { draftContext } from "../sft/parallel-drafts.js";
import { replaceHeldoutDrafts, type HeldoutDraftRow } from "./heldout-drafts-store.js";
import { normalisedUnder, type Baselines } from "./heldout-eval.js";

/**
 * The policy-level held-out measure of one checkpoint (issue 30 item 4a): per held-out task, `drafts` fresh Drafts
 * (no memory), draw i seeded by keyedSeed(seed, "<task>#<i>") so every generation drafts from the same draws; each
 * is executed and graded on the hidden test, normalised by the task's baselines. Rows replace the task's earlier
 * rows for this (loop, generation). Each task's row goes into `tasks` too, so that a loop exported without its
 * packages (data/recorded-runs) still knows every held-out task's metric and shape (`storedTaskPackages`).
 */
export async function heldoutDrafts(opts: {
  readonly workspace: Workspace;
  readonly loopId: string;
  readonly generation: number;
  readonly checkpoint: string;
  readonly policy: Policy;
  readonly tasks: readonly TaskPackage[];
  readonly drafts: number;
  readonly seed: number;
  readonly perRunTimeoutS: number;
  readonly memoryMb?: number;
  readonly concurrency: number;
  readonly baselines: Baselines;
  readonly evaluate: (job: SandboxJob) => Promise<ExecutionRecord>;
  /** Progress: called once a task's rows are stored (`done` of `of` tasks), so long re-measures show where they are. */
  readonly onTask?: (taskId: string, rows: readonly HeldoutDraftRow[], done: number, of: number) => void;
}): Promise<HeldoutDraftRow[]> {
  const all: HeldoutDraftRow[] = [];
  for (const task of opts.tasks) {
    await recordTaskReview(opts.workspace, task, {});
    const b = opts.baselines[task.meta.id];
    const one = async (i: number): Promise<HeldoutDraftRow> => {
      const d = await heldoutDraft(task, i, { ...opts, timeoutS: opts.perRunTimeoutS });
      return {
        loopId: opts.loopId,
        generation: opts.generation,
        checkpoint: opts.checkpoint,
        taskId: task.meta.id,
        draft: i,
        ...d,
        normalized: normalisedUnder(d.testScore, b, task.meta.higherIsBetter),
      };
    };
    const rows: HeldoutDraftRow[] = [];
    for (let i = 0; i < opts.drafts; i += opts.concurrency) {
      const idx = Array.from({ length: Math.min(opts.concurrency, opts.drafts - i) }, (_, j) => i + j);
      rows.push(...(await Promise.all(idx.map(one))));
    }
    await replaceHeldoutDrafts(opts.workspace, opts.loopId, opts.generation, task.meta.id, rows);
    all.push(...rows);
    opts.onTask?.(task.meta.id, rows, opts.tasks.indexOf(task) + 1, opts.tasks.length);
  }
  return all;
}

/** One held-out draft's graded outcome. */
export interface DraftOutcome {
  readonly status: string;
  /** The program's own validation score, when it succeeded. */
  readonly validScore: number | null;
  /** The hidden test score: null unless the program succeeded with a finite score. */
  readonly testScore: number | null;
  readonly sandboxS: number;
}

/**
 * Draw `draw` of a fresh Draft on `task`: no parents, no memory (draftContext, as the SFT parallel path), the
 * policy's rng seeded keyedSeed(seed, "<task>#<draw>") so every policy drafts from the same draws; executed under
 * `timeoutS` (and `memoryMb` when given) and graded on the hidden test. heldoutDrafts and kit/experiment's draft
 * cells both draw through it.
 */
export async function heldoutDraft(
  task: TaskPackage,
  draw: number,
  o: {
    readonly policy: Policy;
    readonly seed: number;
    readonly timeoutS: number;
    readonly memoryMb?: number;
    readonly evaluate: (job: SandboxJob) => Promise<ExecutionRecord>;
  },
): Promise<DraftOutcome> {
  const out = await o.policy.propose(
    task,
    "draft",
    draftContext(o.timeoutS),
    createRng(keyedSeed(o.seed, `${task.meta.id}#${draw}`)),
  );
  const rec = await o.evaluate({
    task,
    code: out.code,
    limits: { timeoutS: o.timeoutS, ...(o.memoryMb ? { memoryMb: o.memoryMb } : {}) },
  });
  const ok = rec.status === "success";
  const test = ok && rec.testScore !== null && Number.isFinite(rec.testScore) ? rec.testScore : null;
  return { status: rec.status, validScore: ok ? rec.validScore : null, testScore: test, sandboxS: rec.wallS };
}
