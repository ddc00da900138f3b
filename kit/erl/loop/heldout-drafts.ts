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
  const ctx = draftContext(opts.perRunTimeoutS); // no parents, no memory: as the SFT parallel path
  for (const task of opts.tasks) {
    await recordTaskReview(opts.workspace, task, {});
    const b = opts.baselines[task.meta.id];
    const one = async (i: number): Promise<HeldoutDraftRow> => {
      const out = await opts.policy.propose(
        task,
        "draft",
        ctx,
        createRng(keyedSeed(opts.seed, `${task.meta.id}#${i}`)),
      );
      const rec = await opts.evaluate({
        task,
        code: out.code,
        limits: { timeoutS: opts.perRunTimeoutS, ...(opts.memoryMb ? { memoryMb: opts.memoryMb } : {}) },
      });
      const ok = rec.status === "success";
      const test = ok && rec.testScore !== null && Number.isFinite(rec.testScore) ? rec.testScore : null;
      return {
        loopId: opts.loopId,
        generation: opts.generation,
        checkpoint: opts.checkpoint,
        taskId: task.meta.id,
        draft: i,
        status: rec.status,
        validScore: ok ? rec.validScore : null,
        testScore: test,
        normalized: normalisedUnder(test, b, task.meta.higherIsBetter),
        sandboxS: rec.wallS,
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
