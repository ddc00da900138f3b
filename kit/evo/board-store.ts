import type { Workspace } from "../store/index.js";
import { METHOD_FAMILIES } from "./method-family.js";

/** The experience board (docs/paper-map.md: Cards and memory): deterministic DuckDB queries over a run's cards. */
export interface ExperienceBoard {
  readonly familyStats: {
    method_family: string;
    nodes: number;
    successes: number;
    success_rate: number;
    best_score: number | null;
    mean_score: number | null;
  }[];
  readonly bestPerFamily: { method_family: string; node_id: string; score: number; fitness: number }[];
  readonly unexplored: { method_family: string; reason: "never tried" | "only failures" }[];
  readonly repeatedFailures: { error_signature: string; failures: number; nodes: string[] }[];
  readonly scoreTrend: { step: number; node_id: string; score: number | null; best_so_far: number | null }[];
  readonly parentGraph: { parent: string; child: string; operator: string }[];
  /** Gain of each scored Improve/Crossover child over its best parent (signed fitness, > 0 = better), in step order. */
  readonly deltaTrend: { node_id: string; operator: string; delta: number }[];
}

/** The run's nodes before `$beforeStep` (a board as it stood before that step; Infinity-like = all). */
const SCOPE = "(SELECT node_id FROM nodes WHERE run_id = $runId AND step < $beforeStep)";
const families = METHOD_FAMILIES.filter((f) => f !== "unknown")
  .map((f) => `('${f}')`)
  .join(", ");

/** One query per board section, each with the parameters `$runId` and `$beforeStep`. */
export const BOARD_QUERIES = {
  familyStats: `
    SELECT method_family, count(*)::INT AS nodes, count(*) FILTER (WHERE status = 'success')::INT AS successes,
      avg(CASE WHEN status = 'success' THEN 1.0 ELSE 0.0 END) AS success_rate,
      arg_max(score, fitness) AS best_score, avg(score) AS mean_score
    FROM cards WHERE run_id = $runId AND node_id IN ${SCOPE}
    GROUP BY 1 ORDER BY max(fitness) DESC NULLS LAST, 1`,
  bestPerFamily: `
    SELECT method_family, arg_max(node_id, fitness) AS node_id, arg_max(score, fitness) AS score,
      max(fitness) AS fitness
    FROM cards WHERE run_id = $runId AND node_id IN ${SCOPE} AND fitness IS NOT NULL
    GROUP BY 1 ORDER BY fitness DESC, 1`,
  unexplored: `
    SELECT f.method_family, CASE WHEN count(c.node_id) = 0 THEN 'never tried' ELSE 'only failures' END AS reason
    FROM (VALUES ${families}) AS f(method_family)
      LEFT JOIN cards c ON list_contains(string_split(c.method_family, '+'), f.method_family)
        AND c.run_id = $runId AND c.node_id IN ${SCOPE}
    GROUP BY 1 HAVING count(c.fitness) = 0 ORDER BY 2 DESC, 1`,
  repeatedFailures: `
    SELECT error_signature, count(*)::INT AS failures, list(node_id ORDER BY node_id) AS nodes
    FROM cards
    WHERE run_id = $runId AND node_id IN ${SCOPE} AND status <> 'success' AND error_signature IS NOT NULL
    GROUP BY 1 HAVING count(*) >= 2 ORDER BY failures DESC, 1`,
  scoreTrend: `
    SELECT n.step, n.node_id, n.valid_score AS score,
      arg_max(n.valid_score, n.fitness) OVER (ORDER BY n.step ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
        AS best_so_far
    FROM nodes n WHERE n.run_id = $runId AND n.step < $beforeStep ORDER BY n.step`,
  parentGraph: `
    SELECT unnest(parents) AS parent, node_id AS child, operator
    FROM nodes WHERE run_id = $runId AND step < $beforeStep ORDER BY step, parent`,
  deltaTrend: `
    SELECT c.node_id, c.operator, c.delta_vs_parent AS delta
    FROM cards c JOIN nodes n ON n.run_id = c.run_id AND n.node_id = c.node_id
    WHERE c.run_id = $runId AND n.step < $beforeStep AND c.operator IN ('improve', 'crossover')
      AND c.delta_vs_parent IS NOT NULL
    ORDER BY n.step`,
} as const satisfies Record<keyof ExperienceBoard, string>;

/**
 * The board of a run; with `beforeStep`, as it stood before that step (only nodes of earlier steps), so a
 * context rebuilt later (ERL segments) sees what the search saw. The sections are read one after another.
 */
export async function experienceBoard(
  ws: Workspace,
  runId: string,
  beforeStep = 2 ** 31 - 1,
): Promise<ExperienceBoard> {
  const out: Partial<Record<keyof ExperienceBoard, unknown>> = {};
  for (const key of Object.keys(BOARD_QUERIES) as (keyof ExperienceBoard)[]) {
    out[key] = await ws.query(BOARD_QUERIES[key], { runId, beforeStep });
  }
  return out as ExperienceBoard;
}
