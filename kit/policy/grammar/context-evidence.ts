import type { ChangeKind, NodeView, OperatorContext, ShownNode } from "../types.js";
import { classifyFailure, type FailureKind } from "./debug.js";
import { isSolutionSpec } from "./spec.js";

/** What a context tells about one model family (every shown node that names it counts once). */
export interface FamilyEvidence {
  readonly tried: number;
  readonly succeeded: number;
  readonly failed: number;
  /** Best and mean signed fitness (higher is better) of its scored successes; null without one. */
  readonly best: number | null;
  readonly mean: number | null;
  /** Failure kinds (classifyFailure) of its failures, each once, in first-seen order. */
  readonly failureKinds: readonly FailureKind[];
}

/**
 * The information of a context, whichever harness built it, in the grammar's terms. Each field is a
 * function of what the context shows: its parents (every harness shows them), the nodes of its memory
 * sections (`shown.sections`), its experience board (`shown.board`) and its budget (when shown).
 */
export interface ContextEvidence {
  /** Per model family: from the parents and shown nodes that name their models. */
  readonly families: ReadonlyMap<string, FamilyEvidence>;
  /** Per card method family, from the board when it is shown (it covers the whole run): tried, succeeded. */
  readonly boardFamilies: ReadonlyMap<string, { readonly tried: number; readonly succeeded: number }>;
  /** Best and worst signed fitness shown (parents, nodes, the board's current best). */
  readonly best: number | null;
  readonly worst: number | null;
  /** Per change kind, the gains (signed) of the shown Improve/Crossover nodes that made that change. */
  readonly gains: ReadonlyMap<ChangeKind, readonly number[]>;
  /** Failure kinds of the shown failed nodes (parents included) with their counts. */
  readonly failureCounts: ReadonlyMap<FailureKind, number>;
  /** Steps left, when the budget line is shown. */
  readonly stepsLeft: number | null;
}

interface Fact {
  readonly nodeId: string;
  readonly operator: string;
  readonly models: readonly string[];
  readonly status: string;
  readonly validScore: number | null;
  readonly errorSignature: string | null;
  readonly traceback?: string | null;
  readonly stdoutTail?: string;
  readonly gain: number | null;
  readonly change: ChangeKind | null;
}

const fromView = (v: NodeView): Fact => ({
  nodeId: v.nodeId,
  operator: v.operator,
  models: isSolutionSpec(v.spec) ? v.spec.models.map((m) => m.family) : [],
  status: v.status,
  validScore: v.validScore,
  errorSignature: v.errorSignature,
  traceback: v.traceback,
  stdoutTail: v.stdoutTail,
  gain: null,
  change: null,
});

const fromShown = (n: ShownNode): Fact => ({ ...n });

/**
 * The evidence of a context (pure). Nodes are counted once by id: a shown entry wins over the parent's
 * view for gain and change (views carry neither), the view adds the traceback for classifying a failure.
 */
export function contextEvidence(context: OperatorContext, higherIsBetter: boolean): ContextEvidence {
  const sign = higherIsBetter ? 1 : -1;
  const facts = new Map<string, Fact>();
  for (const v of context.parents) facts.set(v.nodeId, fromView(v));
  for (const s of context.shown?.sections ?? [])
    for (const e of s.entries) {
      const prev = facts.get(e.nodeId);
      facts.set(e.nodeId, prev ? { ...prev, gain: e.gain, change: e.change } : fromShown(e));
    }
  const acc = new Map<string, { tried: number; ok: number; bad: number; scores: number[]; kinds: FailureKind[] }>();
  const gains = new Map<ChangeKind, number[]>();
  const failureCounts = new Map<FailureKind, number>();
  const scores: number[] = [];
  for (const f of facts.values()) {
    const ok = f.status === "success" && f.validScore !== null && Number.isFinite(f.validScore);
    const kind = ok ? null : classifyFailure({ ...f, status: f.status as NodeView["status"] });
    if (ok) scores.push(sign * f.validScore!);
    if (kind) failureCounts.set(kind, (failureCounts.get(kind) ?? 0) + 1);
    for (const m of new Set(f.models)) {
      const a = acc.get(m) ?? { tried: 0, ok: 0, bad: 0, scores: [], kinds: [] };
      a.tried++;
      if (ok) {
        a.ok++;
        a.scores.push(sign * f.validScore!);
      } else if (f.status !== "success" || f.validScore === null) {
        a.bad++;
        if (kind && !a.kinds.includes(kind)) a.kinds.push(kind);
      }
      acc.set(m, a);
    }
    if (f.change && f.gain !== null && (f.operator === "improve" || f.operator === "crossover"))
      gains.set(f.change, [...(gains.get(f.change) ?? []), f.gain]);
  }
  const board = context.shown?.board;
  if (board?.currentBest) scores.push(sign * board.currentBest.score);
  const families = new Map<string, FamilyEvidence>();
  for (const [m, a] of acc)
    families.set(m, {
      tried: a.tried,
      succeeded: a.ok,
      failed: a.bad,
      best: a.scores.length ? Math.max(...a.scores) : null,
      mean: a.scores.length ? a.scores.reduce((s, x) => s + x, 0) / a.scores.length : null,
      failureKinds: a.kinds,
    });
  return {
    families,
    boardFamilies: new Map(
      (board?.families ?? []).map((f) => [f.methodFamily, { tried: f.tried, succeeded: f.succeeded }]),
    ),
    best: scores.length ? Math.max(...scores) : null,
    worst: scores.length ? Math.min(...scores) : null,
    gains,
    failureCounts,
    stepsLeft: context.shown?.budget ? context.budget.remainingSteps : null,
  };
}
