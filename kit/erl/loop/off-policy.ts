import {
  effectiveSampleSize,
  mixtureWeights,
  pairedBootstrap,
  twoStageBootstrap,
  weightedMean,
  weightedWinProbability,
  type PairedBootstrapConfig,
  type PairedInterval,
} from "../../eval/index.js";
import type { TaskPackage } from "../../gym/types.js";
import { createGrammarPolicy, logProb, type GrammarOutput, type GrammarParams } from "../../policy/index.js";
import { configHash } from "../../store/index.js";
import { createRng, keyedSeed } from "../../util/index.js";
import { LoopError } from "../errors.js";
import { draftContext } from "../sft/parallel-drafts.js";
import { credit, type TaskFigure } from "./heldout-summary.js";

/** A checkpoint's params under the label its held-out rows carry. */
export interface NamedParams {
  readonly label: string;
  readonly params: GrammarParams;
}

/** A held-out draft replayed without executing it: who drew it, at which draw, what it is, how likely each policy. */
export interface ReplayedDraft {
  readonly taskId: string;
  readonly draft: number;
  readonly drawnBy: string;
  /** configHash of the drafted spec: two drafts with the same hash are the same program. */
  readonly specHash: string;
  /** log π(draft) under every scorer, by label. */
  readonly logProbs: Readonly<Record<string, number>>;
  /** The rendered program, only with `withCode` (pools keep hashes; a reader tracing a grade wants the program). */
  readonly code?: string;
}

/**
 * Replays held-out drafts exactly as heldoutDrafts drew them (draw i of a task seeded keyedSeed(seed, "<task>#<i>"),
 * the SFT parallel path's empty context) under the params of the policy that drew them, and scores each draft's
 * decisions under every scorer's params. Nothing is executed; the drafts' grades come from their stored rows.
 */
export async function replayHeldoutDrafts(opts: {
  readonly tasks: readonly TaskPackage[];
  /** The draws to replay: task, draw index and the label of the policy that drew it (one of `drawers`). */
  readonly draws: readonly { readonly taskId: string; readonly draft: number; readonly drawnBy: string }[];
  readonly drawers: readonly NamedParams[];
  readonly scorers: readonly NamedParams[];
  /** The held-out stage's draw seed and per-run time limit (the draft context shows it). */
  readonly seed: number;
  readonly perRunTimeoutS: number;
  /** Also return each draft's program text. */
  readonly withCode?: boolean;
}): Promise<ReplayedDraft[]> {
  const tasks = new Map(opts.tasks.map((t) => [t.meta.id, t]));
  const drawers = new Map(opts.drawers.map((d) => [d.label, createGrammarPolicy(d.params)]));
  const ctx = draftContext(opts.perRunTimeoutS);
  const out: ReplayedDraft[] = [];
  for (const d of opts.draws) {
    const task = tasks.get(d.taskId);
    const policy = drawers.get(d.drawnBy);
    if (!task || !policy)
      throw new LoopError(
        `replayHeldoutDrafts: no task or drawer for ${d.taskId} / ${d.drawnBy}: pass the task and the drawer's params`,
      );
    const rng = createRng(keyedSeed(opts.seed, `${d.taskId}#${d.draft}`));
    const g = (await policy.propose(task, "draft", ctx, rng)) as GrammarOutput;
    const logProbs: Record<string, number> = {};
    for (const s of opts.scorers) logProbs[s.label] = logProb(s.params, { choices: g.choices }, task, "draft", ctx);
    out.push({ ...d, specHash: configHash(g.spec), logProbs, ...(opts.withCode ? { code: g.code } : {}) });
  }
  return out;
}

/** A replayed draft with its stored grade (loop_heldout_drafts). */
export interface PoolDraft extends ReplayedDraft {
  readonly testScore: number | null;
  readonly normalized: number | null;
}

/** A task figure estimated off-policy, with the effective number of programs behind it. */
export interface OffPolicyFigure extends TaskFigure {
  readonly ess: number;
}

/** Per task (sorted by id), its pool's drafts grouped by draw index (a draw's column holds every drawer's draft). */
function columns(pool: readonly PoolDraft[], drawers: readonly string[]): [string, PoolDraft[][]][] {
  const by = new Map<string, Map<number, PoolDraft[]>>();
  for (const p of pool) {
    if (!drawers.includes(p.drawnBy)) continue;
    const t = by.get(p.taskId) ?? new Map<number, PoolDraft[]>();
    t.set(p.draft, [...(t.get(p.draft) ?? []), p]);
    by.set(p.taskId, t);
  }
  return [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([t, m]) => [t, [...m.entries()].sort(([a], [b]) => a - b).map(([, ps]) => ps)]);
}

/**
 * mixtureWeights of one task's pool for `target`, the mixture being the drawers in proportion to their draws. The
 * weights depend on the pool only through those proportions, so a resample of whole columns (every drawer's draft of
 * a draw) reuses the full pool's weights: they are cached per draft, target and proportions.
 */
const weightCache = new WeakMap<PoolDraft, Map<string, number>>();
function weightsFor(entries: readonly PoolDraft[], drawers: readonly string[], target: string): number[] {
  const counts = drawers.map(() => 0);
  for (const e of entries) counts[drawers.indexOf(e.drawnBy)]! += 1;
  const total = entries.length;
  const key = `${target}\u0000${drawers.join("\u0000")}\u0000${counts.map((c) => c / total).join(",")}`;
  const cached = entries.map((e) => weightCache.get(e)?.get(key));
  if (cached.every((w) => w !== undefined)) return cached as number[];
  const lp = (e: PoolDraft, label: string) => {
    const v = e.logProbs[label];
    if (v === undefined)
      throw new LoopError(
        `off-policy: draft ${e.taskId}#${e.draft} has no log-probability under ${label}: add ${label} to the scorers`,
      );
    return v;
  };
  const w = mixtureWeights(
    entries.map((e) => lp(e, target)),
    entries.map((e) => drawers.map((d) => lp(e, d))),
    counts,
  );
  entries.forEach((e, i) => {
    const m = weightCache.get(e) ?? new Map<string, number>();
    m.set(key, w[i]!);
    weightCache.set(e, m);
  });
  return w;
}

const graded = (e: PoolDraft) => e.testScore !== null;
const taskScore = (es: readonly PoolDraft[], w: readonly number[]) =>
  weightedMean(
    es.map((e) => credit(graded(e), e.normalized)),
    w,
  );

/**
 * The policy-level figures (heldout-summary's taskFigures) of `target` estimated from a pool of drafts drawn by
 * `drawers` (kit/eval's mixtureWeights, self-normalised): per task, score = Σ w · credit / Σ w over the normalisable
 * tasks, validRate = Σ w · 1(graded) / Σ w, n = the pool's drafts, ess = their effective number for this target.
 */
export function offPolicyFigures(
  pool: readonly PoolDraft[],
  drawers: readonly string[],
  target: string,
  normalisable: ReadonlySet<string>,
): OffPolicyFigure[] {
  return columns(pool, drawers).map(([taskId, cols]) => {
    const es = cols.flat();
    const w = weightsFor(es, drawers, target);
    return {
      taskId,
      n: es.length,
      validRate: weightedMean(
        es.map((e) => (graded(e) ? 1 : 0)),
        w,
      )!,
      score: normalisable.has(taskId) ? taskScore(es, w) : null,
      ess: effectiveSampleSize(w),
    };
  });
}

/** What a paired off-policy comparison reads: the measure and how each task's metric runs. */
export interface OffPolicyMeasure {
  /** `score`: mean credit difference over the normalisable tasks; `win`: P̂(A ≻ B) − ½ on every task. */
  readonly measure: "score" | "win";
  readonly normalisable: ReadonlySet<string>;
  readonly higherIsBetter: (taskId: string) => boolean;
}

/** The tasks a measure reads (score: the normalisable ones; win: all), with their pool columns. */
const measuredColumns = (pool: readonly PoolDraft[], drawers: readonly string[], m: OffPolicyMeasure) =>
  columns(pool, drawers).filter(([t]) => m.measure === "win" || m.normalisable.has(t));

/** The per-task difference A − B of one task's pool columns (NaN when a side has no weight). */
function columnDiff(
  cols: readonly PoolDraft[][],
  drawers: readonly string[],
  a: string,
  b: string,
  taskId: string,
  m: OffPolicyMeasure,
) {
  const es = cols.flat();
  const [wa, wb] = [weightsFor(es, drawers, a), weightsFor(es, drawers, b)];
  if (m.measure === "score") return (taskScore(es, wa) ?? NaN) - (taskScore(es, wb) ?? NaN);
  const sign = m.higherIsBetter(taskId) ? 1 : -1;
  const keys = es.map((e) => (e.testScore === null ? -Infinity : sign * e.testScore));
  return (weightedWinProbability(keys, wa, wb) ?? NaN) - 0.5;
}

/**
 * Per task (sorted by id), the off-policy estimate of A − B on one pool: `score` (mean credit difference, normalisable
 * tasks only) or `win` (P̂(A ≻ B) − ½ by weightedWinProbability on test scores in the task's direction, every task).
 */
export function offPolicyDiffs(
  pool: readonly PoolDraft[],
  drawers: readonly string[],
  a: string,
  b: string,
  m: OffPolicyMeasure,
): { readonly taskId: string; readonly diff: number }[] {
  return measuredColumns(pool, drawers, m).map(([taskId, cols]) => ({
    taskId,
    diff: columnDiff(cols, drawers, a, b, taskId, m),
  }));
}

/** What a paired off-policy comparison reports: tasks resampled, and tasks and draws resampled. */
export interface OffPolicyPaired {
  readonly tasks: PairedInterval | null;
  readonly withDraws: PairedInterval | null;
}

/**
 * offPolicyDiffs with two intervals: pairedBootstrap over tasks, and twoStageBootstrap with each task's draws
 * resampled as whole columns (every drawer's draft of a draw together, so the pairing by seed is kept).
 */
export function offPolicyPaired(
  pool: readonly PoolDraft[],
  drawers: readonly string[],
  a: string,
  b: string,
  m: OffPolicyMeasure & { readonly bootstrap?: Partial<PairedBootstrapConfig> },
): OffPolicyPaired {
  const tasks = measuredColumns(pool, drawers, m);
  return {
    tasks: pairedBootstrap(
      tasks.map(([t, cols]) => columnDiff(cols, drawers, a, b, t, m)),
      m.bootstrap,
    ),
    withDraws: twoStageBootstrap(
      tasks.map(([, cols]) => cols),
      (cols, i) => columnDiff(cols, drawers, a, b, tasks[i]![0], m),
      m.bootstrap,
    ),
  };
}
