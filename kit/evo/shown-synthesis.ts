import type { ShownNode, ShownSynthesis } from "../policy/types.js";

/** Gains as the board prints them: 4 significant digits, no float noise. */
const fmt = (x: number) => String(Number(x.toPrecision(4)));

/** Items per synthesis field: a short block beside the sections it summarises. */
export const SYNTHESIS_MAX_ITEMS = 3;

/**
 * OpenMLE-Evo's memory synthesis as fields (pure), from the entries shown (ideas left out, each node once):
 * 1. worked: entries with gain > 0, best gain first: `id: idea (+gain)`;
 * 2. failed: entries that did not succeed or lost to their parent, most recent (`stepOf`) first:
 *    `id: idea (status, signature)` or `id: idea (gain -x)`;
 * 3. openIdeas: the board's under-explored families as `try family`.
 * Undefined when all three are empty (nothing to print).
 */
export function shownSynthesis(
  entries: readonly ShownNode[],
  underExplored: readonly string[],
  stepOf: ReadonlyMap<string, number>,
): ShownSynthesis | undefined {
  const seen = new Set<string>();
  const nodes = entries.filter((e) => e.role !== "idea" && !seen.has(e.nodeId) && seen.add(e.nodeId));
  const worked = nodes
    .filter((e) => e.gain !== null && e.gain > 0)
    .sort((a, b) => b.gain! - a.gain!)
    .slice(0, SYNTHESIS_MAX_ITEMS)
    .map((e) => `${e.nodeId}: ${e.idea} (+${fmt(e.gain!)})`);
  const step = (e: ShownNode) => stepOf.get(e.nodeId) ?? -1;
  const failed = nodes
    .filter((e) => e.status !== "success" || (e.gain !== null && e.gain < 0))
    .sort((a, b) => step(b) - step(a))
    .slice(0, SYNTHESIS_MAX_ITEMS)
    .map((e) => {
      const why =
        e.status !== "success"
          ? `${e.status}${e.errorSignature ? `, ${e.errorSignature}` : ""}`
          : `gain ${fmt(e.gain!)}`;
      return `${e.nodeId}: ${e.idea} (${why})`;
    });
  const openIdeas = underExplored.map((f) => `try ${f}`);
  return worked.length || failed.length || openIdeas.length ? { worked, failed, openIdeas } : undefined;
}
