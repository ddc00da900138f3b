import type { EvoNode } from "./types.js";
import { isGood } from "./types.js";

/** One row of the cards table: every experience-card field (docs/paper-map.md: Cards and memory). */
export interface ExperienceCard {
  readonly run_id: string;
  readonly node_id: string;
  readonly operator: string;
  readonly parents: readonly string[];
  /** Loop generation (island harnesses; tree harnesses: lineage depth). */
  readonly generation_id: number;
  /** Lineage depth: drafts 0, Improve/Crossover = deepest parent + 1, Debug keeps its parent's. */
  readonly lineage_depth: number;
  readonly score: number | null;
  readonly fitness: number | null;
  /** The execution-grounded reward in [0, 1] (sandboxReward). */
  readonly reward: number;
  readonly status: string;
  readonly error_signature: string | null;
  readonly sandbox_time_s: number;
  readonly model_time_s: number;
  readonly cost_usd: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly imports: readonly string[];
  readonly method_family: string;
  readonly family_explored: number;
  readonly delta_vs_parent: number | null;
  readonly novelty: number;
  readonly rank: number | null;
  /** rank === 1 when the card was written (the run's final champion is runs.champion_node_id). */
  readonly champion_at_write: boolean;
  /** Utility of the parent(s) at the selection that produced this node (mean for Crossover); null for Draft/Debug. */
  readonly selection_utility: number | null;
  /** This node's own selection utility in its island once admitted (null when not admitted or no selection). */
  readonly utility: number | null;
  readonly plan: string;
  readonly analysis: string;
  readonly rich_summary: string | null;
  /** Characters of the operator prompt the node's context renders to (operatorPromptChars); null: unknown. */
  readonly prompt_chars: number | null;
}

/**
 * The execution-grounded reward of a node (the paper's Fig. 6, reference code), from the signed scores of the
 * run's earlier successes plus its own, sorted descending x(1) >= … >= x(K): B = x(1), anchor =
 * x(16) (the lowest when K < 16), W = anchor − 0.25·(B − anchor);
 *   r = clip((s̃ − W)/(B − W), 0, 1); the only finite score gets 1; a failure or non-finite score 0;
 * B <= W → B = W + 1e-6. It depends on this node and the ones before it only, so it never changes later.
 */
export function sandboxReward(fitness: number | null, earlier: readonly number[]): number {
  if (fitness === null || !Number.isFinite(fitness)) return 0;
  const xs = [...earlier.filter(Number.isFinite), fitness].sort((a, b) => b - a);
  if (xs.length === 1) return 1;
  const best = xs[0]!;
  const anchor = xs[Math.min(15, xs.length - 1)]!;
  const w = anchor - 0.25 * (best - anchor);
  const b = best <= w ? w + 1e-6 : best;
  return Math.min(1, Math.max(0, (fitness - w) / (b - w)));
}

/**
 * The card of `node`, written right after its evaluation from the run's earlier nodes only, so it
 * is deterministic: family_explored/novelty count earlier cards of the family; rank and champion
 * are among the run's scored nodes including this one; reward is sandboxReward; selection_utility
 * the utilities of the parents that produced it, utility its own once admitted.
 */
export function buildCard(
  runId: string,
  node: EvoNode,
  earlier: readonly EvoNode[],
  parentUtilities: readonly number[] | null = null,
  utility: number | null = null,
  seen: { readonly promptChars?: number | null } = {},
): ExperienceCard {
  const familyExplored = earlier.filter((n) => n.methodFamily === node.methodFamily).length;
  const byId = new Map(earlier.map((n) => [n.nodeId, n]));
  const parentFit = node.parents.map((p) => byId.get(p)?.fitness ?? null).filter((f): f is number => f !== null);
  const before = earlier.filter(isGood).map((n) => n.fitness!);
  const reward = sandboxReward(isGood(node) ? node.fitness : null, before);
  let rank: number | null = null;
  if (isGood(node)) rank = 1 + before.filter((f) => f > node.fitness!).length;
  const delta = isGood(node) && parentFit.length ? node.fitness! - Math.max(...parentFit) : null;
  return {
    run_id: runId,
    node_id: node.nodeId,
    operator: node.operator,
    parents: node.parents,
    generation_id: node.generation,
    lineage_depth: node.lineageDepth,
    score: node.validScore,
    fitness: node.fitness,
    reward,
    status: node.status,
    error_signature: node.errorSignature,
    sandbox_time_s: node.sandboxS,
    model_time_s: (node.usage?.latencyMs ?? 0) / 1000,
    cost_usd: node.usage?.costUsd ?? 0,
    prompt_tokens: node.usage?.promptTokens ?? 0,
    completion_tokens: node.usage?.completionTokens ?? 0,
    imports: node.imports,
    method_family: node.methodFamily,
    family_explored: familyExplored,
    delta_vs_parent: delta,
    novelty: 1 / Math.sqrt(1 + familyExplored),
    rank,
    champion_at_write: rank === 1,
    selection_utility: parentUtilities?.length
      ? parentUtilities.reduce((a, b) => a + b, 0) / parentUtilities.length
      : null,
    utility,
    plan: node.plan,
    analysis: analyse(node, delta),
    rich_summary: null,
    prompt_chars: seen.promptChars ?? null,
  };
}

/** A one-line deterministic analysis of the outcome. */
export function analyse(
  node: Pick<EvoNode, "status" | "validScore" | "errorSignature" | "traceback">,
  delta: number | null,
): string {
  if (node.status === "success" && node.validScore !== null) {
    const d = delta === null ? "" : ` (${delta >= 0 ? "+" : ""}${delta.toPrecision(3)} vs best parent)`;
    return `success: validation ${node.validScore.toPrecision(4)}${d}`;
  }
  const last = (node.traceback ?? "").trim().split("\n").at(-1) ?? "";
  const error = node.errorSignature ? ` [${node.errorSignature}]` : "";
  return `${node.status}${error}${last ? `: ${last.slice(0, 160)}` : ""}`;
}

/** The deterministic card summary used as memory when no model is given (and by the grammar policy). */
export function cardSummary(
  c: Pick<ExperienceCard, "node_id" | "operator" | "method_family" | "plan" | "analysis" | "parents">,
): string {
  const from = c.parents.length ? ` from ${c.parents.join("+")}` : "";
  return (
    `${c.node_id} ${c.operator}${from} [${c.method_family}] ${c.plan.split("\n")[0]!.slice(0, 160)} → ` +
    `${c.analysis}`
  );
}
