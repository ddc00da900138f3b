import { OPERATORS } from "../policy/types.js";
import { isGood, type EvoNode } from "./types.js";

export interface RunSummary {
  readonly runId: string;
  readonly taskId: string;
  readonly harness: string;
  readonly policy: string;
  readonly seed: number;
  readonly nodes: number;
  readonly byOperator: Record<string, number>;
  readonly byStatus: Record<string, number>;
  /** Share of nodes that ran and scored. */
  readonly validRate: number;
  readonly champion: {
    readonly nodeId: string;
    readonly operator: string;
    readonly methodFamily: string;
    readonly validScore: number;
    readonly testScore: number | null;
  } | null;
  readonly sandboxS: number;
  readonly wallS: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly nodesPerMin: number;
  readonly stopReason: "steps" | "wall-time" | "sandbox-time" | "aborted";
}

/** The champion by validation fitness (earliest among ties). */
export function champion(nodes: readonly EvoNode[]): EvoNode | null {
  let best: EvoNode | null = null;
  for (const n of nodes) if (isGood(n) && (best === null || n.fitness! > best.fitness!)) best = n;
  return best;
}

export function summarise(
  nodes: readonly EvoNode[],
  run: {
    runId: string;
    taskId: string;
    harness: string;
    policy: string;
    seed: number;
    wallS: number;
    stopReason: RunSummary["stopReason"];
  },
): RunSummary {
  const count = (f: (n: EvoNode) => string) =>
    nodes.reduce<Record<string, number>>((m, n) => ({ ...m, [f(n)]: (m[f(n)] ?? 0) + 1 }), {});
  const byOperator = Object.fromEntries(OPERATORS.map((o) => [o, 0]));
  Object.assign(
    byOperator,
    count((n) => n.operator),
  );
  const c = champion(nodes);
  return {
    ...run,
    nodes: nodes.length,
    byOperator,
    byStatus: count((n) => n.status),
    validRate: nodes.length ? nodes.filter(isGood).length / nodes.length : 0,
    champion: c && {
      nodeId: c.nodeId,
      operator: c.operator,
      methodFamily: c.methodFamily,
      validScore: c.validScore!,
      testScore: c.testScore,
    },
    sandboxS: nodes.reduce((s, n) => s + n.sandboxS, 0),
    promptTokens: nodes.reduce((s, n) => s + (n.usage?.promptTokens ?? 0), 0),
    completionTokens: nodes.reduce((s, n) => s + (n.usage?.completionTokens ?? 0), 0),
    nodesPerMin: run.wallS > 0 ? (60 * nodes.length) / run.wallS : 0,
  };
}

/** The run's final champion as the `runs` columns evolve writes when the run ends (kit/store/columns/evo-runs.ts). */
export function championColumns(c: EvoNode | null): {
  champion_node_id: string | null;
  champion_valid_score: number | null;
  champion_test_score: number | null;
  champion_fitness: number | null;
} {
  return {
    champion_node_id: c?.nodeId ?? null,
    champion_valid_score: c?.validScore ?? null,
    champion_test_score: c?.testScore ?? null,
    champion_fitness: c?.fitness ?? null,
  };
}
