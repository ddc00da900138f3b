import type { ShownBest, ShownBoard } from "../policy/types.js";
import type { ExperienceBoard } from "./board-store.js";

/** Numbers as people read them: 4 significant digits, no float noise (0.09999999999999998 → 0.1). */
const fmt = (x: number) => String(Number(x.toPrecision(4)));
const signed = (x: number) => `${x >= 0 ? "+" : ""}${fmt(x)}`;

/** A family tried at most this many times (and not only failed) is under-explored. */
export const UNDER_EXPLORED_MAX_TRIES = 2;

/** Under-explored families (OpenMLE-Evo board): at most UNDER_EXPLORED_MAX_TRIES tries, not all failed, best family
 * first. */
export function underExplored(b: Pick<ExperienceBoard, "familyStats">): string[] {
  return b.familyStats
    .filter((f) => f.nodes <= UNDER_EXPLORED_MAX_TRIES && f.successes > 0)
    .map((f) => f.method_family);
}

/**
 * The board Improve and Crossover see, as data (docs/paper-map.md: Cards and memory; Draft and Debug get none), from
 * the board's DuckDB queries: the best node of the two best families, per-family stats, under-explored families,
 * repeated errors and the last `window` score deltas; `lines` is `boardLines` of those fields.
 */
export function shownBoard(b: ExperienceBoard, window = 5): ShownBoard {
  const best = (r: ExperienceBoard["bestPerFamily"][number] | undefined): ShownBest | null =>
    r ? { nodeId: r.node_id, methodFamily: r.method_family, score: r.score } : null;
  const fields: Omit<ShownBoard, "lines"> = {
    currentBest: best(b.bestPerFamily[0]),
    runnerUp: best(b.bestPerFamily[1]),
    families: b.familyStats.map((f) => ({
      methodFamily: f.method_family,
      tried: f.nodes,
      succeeded: f.successes,
      best: f.best_score,
    })),
    underExplored: underExplored(b),
    repeatedErrors: b.repeatedFailures.map((f) => ({
      signature: f.error_signature,
      failures: f.failures,
      nodes: f.nodes,
    })),
    trend: b.deltaTrend.slice(-window).map((d) => ({ nodeId: d.node_id, operator: d.operator, delta: d.delta })),
  };
  return { ...fields, lines: boardLines(fields) };
}

/**
 * The board lines, rendered from the board's fields:
 * 1. current best: the node of the best family (highest signed fitness);
 * 2. per-family stats: tried, succeeded, best validation;
 * 3. under-explored families (`underExplored`);
 * 4. repeated errors: signatures that failed at least twice, with their nodes;
 * 5. score-delta trend: the gains of the last scored Improve/Crossover children over their best parent,
 *    oldest first, with their mean (> 0 improving, < 0 worsening, else flat);
 * 6. crossover complementarity hint: the best nodes of the two best families (omitted with fewer than two).
 */
export function boardLines(b: Omit<ShownBoard, "lines">): string[] {
  const best = b.currentBest;
  const out = [
    best
      ? `Current best: ${best.nodeId} [${best.methodFamily}] validation ${fmt(best.score)}`
      : "Current best: none yet",
  ];
  const fams = b.families.map(
    (f) => `${f.methodFamily} ${f.tried}, ${f.succeeded}, ${f.best === null ? "-" : fmt(f.best)}`,
  );
  out.push(`Families (tried, succeeded, best validation): ${fams.join("; ") || "none"}`);
  out.push(
    `Under-explored families (at most ${UNDER_EXPLORED_MAX_TRIES} tries, not all ` +
      `failed): ${b.underExplored.join(", ") || "none"}`,
  );
  const repeated = b.repeatedErrors.map((f) => `${f.signature} ×${f.failures} (${f.nodes.join(", ")})`);
  out.push(`Repeated errors: ${repeated.join("; ") || "none"}`);
  const last = b.trend.map((d) => d.delta);
  if (last.length) {
    const mean = last.reduce((s, x) => s + x, 0) / last.length;
    const trend = mean > 0 ? "improving" : mean < 0 ? "worsening" : "flat";
    out.push(
      `Score-delta trend (last ${last.length} Improve/Crossover children, gain over the best parent, ` +
        `oldest first): ${last.map(signed).join(", ")}; mean ${signed(mean)}, ${trend}`,
    );
  } else out.push("Score-delta trend: no scored Improve/Crossover child yet");
  const [a, c] = [b.currentBest, b.runnerUp];
  if (a && c)
    out.push(
      `Complementary: ${a.nodeId} [${a.methodFamily}] ${fmt(a.score)} and ` +
        `${c.nodeId} [${c.methodFamily}] ${fmt(c.score)} are the best of different families; a crossover may ` +
        `combine their strengths.`,
    );
  return out;
}
