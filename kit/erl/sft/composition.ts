import { OPERATORS, type Operator } from "../../policy/types.js";

/** The paper's SFT composition by operator, in % of 26,259 examples (docs/paper-map.md: SFT composition). */
export const PAPER_COMPOSITION: Readonly<Record<Operator, number>> = {
  draft: 74.0,
  debug: 16.5,
  improve: 6.6,
  crossover: 2.8,
};

export interface CompositionRow {
  readonly operator: Operator;
  readonly parallel: number;
  readonly evolution: number;
  readonly total: number;
  /** total / all examples, in % (0 when there are none). */
  readonly sharePct: number;
  readonly paperPct: number;
}

/** Examples per operator and path, with each operator's share beside the paper's. */
export function composition(
  examples: readonly { readonly operator: Operator; readonly path: "parallel" | "evolution" }[],
): CompositionRow[] {
  const n = examples.length;
  return OPERATORS.map((operator) => {
    const parallel = examples.filter((e) => e.operator === operator && e.path === "parallel").length;
    const evolution = examples.filter((e) => e.operator === operator && e.path === "evolution").length;
    const total = parallel + evolution;
    return {
      operator,
      parallel,
      evolution,
      total,
      sharePct: n ? (100 * total) / n : 0,
      paperPct: PAPER_COMPOSITION[operator],
    };
  });
}
