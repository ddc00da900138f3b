// Registration's first step: a plan's names resolved to what they mean now (task ids, package hashes and studies,
// arms' params hashes and training tasks, the kit's commit), and the confirm suite's ids.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import {
  confirmTaskIds,
  expandTaskList,
  packageHash,
  peekConfirmIds,
  readCorpusIndex,
  resolveTask,
  type CorpusIndex,
} from "../gym/index.js";
import type { Workspace } from "../store/index.js";
import { KitError } from "../util/index.js";
import { resolveArm } from "./arm-policy.js";
import { PlanError } from "./errors.js";
import type { ExperimentPlan, ResolvedPlan, ResolvedTask } from "./experiment-plan.js";
import { kitCommit } from "./kit-commit.js";
import { leaderboardHash, taskLeaderboards } from "./task-leaderboards.js";

export interface ResolveOptions {
  readonly workspace: Workspace;
  /** The corpus index for suite: items; default readCorpusIndex (the CLI's builds a missing corpus first). */
  readonly loadIndex?: () => Promise<CorpusIndex>;
  /** The corpus index for studies and the seal, never built; default readCorpusIndex, null when there is none. */
  readonly readIndex?: () => Promise<CorpusIndex | null>;
  /** Default kitCommit(). */
  readonly kitCommit?: string;
  /** Progress: a task resolved (a built-in task is built once into the cache). */
  readonly onTask?: (taskId: string, done: number, of: number) => void;
}

export interface Resolution {
  readonly plan: ResolvedPlan;
  /** The confirm suite's task ids (empty without a corpus index). */
  readonly confirmIds: ReadonlySet<string>;
}

/** The corpus index as it is, or null when there is none or it cannot be read (never a build). */
export const readIndexOrNull = (): Promise<CorpusIndex | null> =>
  readCorpusIndex().catch((e: unknown) => (e instanceof KitError ? null : Promise.reject(e)));

/** An item that resolveTask reads as a folder (a path, or an existing folder), not an id. */
const isFolder = (item: string) =>
  item.includes("/") || item.startsWith(".") || (existsSync(resolve(item)) && statSync(resolve(item)).isDirectory());

/**
 * 1. the task items expanded (expandTaskList with allowConfirm: registration is the gate the seal names), each task
 *    loaded (resolveTask, allowConfirm), hashed (packageHash, and leaderboardHash of its leaderboard) and given its
 *    study (the corpus index's; a built-in task or a folder is its own study);
 * 2. each arm resolved (resolveArm: params hashes, training tasks);
 * 3. the kit's commit.
 */
export async function resolvePlan(plan: ExperimentPlan, opts: ResolveOptions): Promise<Resolution> {
  const withComma = plan.tasks.find((t) => t.includes(","));
  if (withComma) throw new PlanError(`tasks: "${withComma}" holds a comma: give one task item per list entry`);
  const ids = await expandTaskList(plan.tasks.join(","), {
    loadIndex: opts.loadIndex ?? (() => readCorpusIndex()),
    allowConfirm: true,
  });
  // The index for studies and the seal, when there is a usable one (a plan of built-in tasks needs none).
  const index = await (opts.readIndex ?? readIndexOrNull)();
  const studies = new Map((index?.tasks ?? []).map((t) => [t.id, t.study]));
  const tasks: ResolvedTask[] = [];
  for (const [i, item] of ids.entries()) {
    const pkg = await resolveTask(item, { allowConfirm: true });
    const id = pkg.meta.id;
    if (tasks.some((t) => t.id === id))
      throw new PlanError(`tasks: two items resolve to task ${id}: list each task once`);
    const hash = packageHash(pkg.dir);
    const board = taskLeaderboards([{ id, competitionId: pkg.meta.competitionId, packageHash: hash }]).get(id);
    tasks.push({
      id,
      packageHash: hash,
      leaderboardHash: board ? leaderboardHash(board) : null,
      study: studies.get(id) ?? id,
      ref: isFolder(item) ? pkg.dir : item,
    });
    opts.onTask?.(id, i + 1, ids.length);
  }
  const arms = [];
  for (const a of plan.arms) arms.push(await resolveArm(a, opts.workspace, plan.level.kind));
  return {
    plan: {
      name: plan.name,
      question: plan.question,
      arms,
      taskItems: [...plan.tasks],
      tasks,
      level: plan.level,
      seed: plan.seed,
      measures: plan.measures,
      decision: plan.decision,
      timeoutS: plan.timeoutS,
      memoryMb: plan.memoryMb,
      concurrency: plan.concurrency,
      kitCommit: opts.kitCommit ?? kitCommit(),
    },
    confirmIds: index ? confirmTaskIds(index) : peekConfirmIds(),
  };
}
