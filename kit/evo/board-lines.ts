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
 * The board lines Improve and Crossover see (spec §4 point 4; Draft and Debug get none), from the
 * board's DuckDB queries:
 * 1. current best: the node of the best family (highest signed fitness);
 * 2. per-family stats: tried, succeeded, best validation;
 * 3. under-explored families (`underExplored`);
 * 4. repeated errors: signatures that failed at least twice, with their nodes;
 * 5. score-delta trend: the gains of the last `window` scored Improve/Crossover children over their best
 *    parent, oldest first, with their mean (> 0 improving, < 0 worsening, else flat);
 * 6. crossover complementarity hint: the best nodes of the two best families (omitted with fewer than two).
 */
export function boardLines(b: ExperienceBoard, window = 5): string[] {
  const best = b.bestPerFamily[0];
  const out = [
    best
      ? `Current best: ${best.node_id} [${best.method_family}] validation ${fmt(best.score)}`
      : "Current best: none yet",
  ];
  const fams = b.familyStats.map(
    (f) => `${f.method_family} ${f.nodes}, ${f.successes}, ${f.best_score === null ? "-" : fmt(f.best_score)}`,
  );
  out.push(`Families (tried, succeeded, best validation): ${fams.join("; ") || "none"}`);
  out.push(
    `Under-explored families (at most ${UNDER_EXPLORED_MAX_TRIES} tries, not all ` +
      `failed): ${underExplored(b).join(", ") || "none"}`,
  );
  const repeated = b.repeatedFailures.map((f) => `${f.error_signature} ×${f.failures} (${f.nodes.join(", ")})`);
  out.push(`Repeated errors: ${repeated.join("; ") || "none"}`);
  const last = b.deltaTrend.slice(-window).map((d) => d.delta);
  if (last.length) {
    const mean = last.reduce((s, x) => s + x, 0) / last.length;
    const trend = mean > 0 ? "improving" : mean < 0 ? "worsening" : "flat";
    out.push(
      `Score-delta trend (last ${last.length} Improve/Crossover children, gain over the best parent, ` +
        `oldest first): ${last.map(signed).join(", ")}; mean ${signed(mean)}, ${trend}`,
    );
  } else out.push("Score-delta trend: no scored Improve/Crossover child yet");
  const [a, c] = b.bestPerFamily;
  if (a && c)
    out.push(
      `Complementary: ${a.node_id} [${a.method_family}] ${fmt(a.score)} and ` +
        `${c.node_id} [${c.method_family}] ${fmt(c.score)} are the best of different families; a crossover may ` +
        `combine their strengths.`,
    );
  return out;
}
