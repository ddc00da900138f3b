import type { ExperienceBoard } from "./board-store.js";

/** A short plain-text rendering of the board (CLI and prompts); the board is read by board-store.ts. */
export function renderBoard(b: ExperienceBoard): string {
  const fam = b.familyStats
    .map((f) => `${f.method_family}: ${f.nodes} nodes, ${f.successes} ok, best ${f.best_score ?? "-"}`)
    .join("; ");
  const fails = b.repeatedFailures.map((f) => `${f.error_signature} ×${f.failures}`).join(", ");
  return [
    `families: ${fam || "none"}`,
    `unexplored: ${b.unexplored.map((u) => u.method_family).join(", ") || "none"}`,
    `repeated failures: ${fails || "none"}`,
  ].join("\n");
}
