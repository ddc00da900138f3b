import type { ContextShown, OperatorContext } from "./types.js";

/** The budget line every harness prints last. */
export function budgetLine(b: OperatorContext["budget"]): string {
  const time = Number.isFinite(b.remainingTimeS) ? `${Math.round(b.remainingTimeS)} s` : "no wall-time limit";
  return `Budget: ${b.remainingSteps} steps and ${time} remain; each program may run at most ${b.perRunTimeLimitS} s.`;
}

/** The synthesis block's lines (OpenMLE-Evo): one per non-empty field. */
export function synthesisLines(s: NonNullable<ContextShown["synthesis"]>): string[] {
  const out: string[] = [];
  if (s.worked.length) out.push(`What worked: ${s.worked.join("; ")}`);
  if (s.failed.length) out.push(`What failed: ${s.failed.join("; ")}`);
  if (s.openIdeas.length) out.push(`Open ideas: ${s.openIdeas.join("; ")}`);
  return out;
}

/**
 * The memory block of a context, rendered from what the harness shows (pure): priors, the experience
 * board, each section (title, then its entries' text), the synthesis, the budget line.
 */
export function renderShown(shown: ContextShown, budget: OperatorContext["budget"]): string {
  const parts: string[] = [];
  if (shown.priors) parts.push(`Priors from earlier tasks:\n${shown.priors}`);
  if (shown.board?.lines.length) parts.push("Experience board:", ...shown.board.lines);
  for (const s of shown.sections) {
    if (s.title !== null) parts.push(s.title);
    parts.push(...s.entries.map((e) => e.text));
  }
  if (shown.synthesis) {
    const lines = synthesisLines(shown.synthesis);
    if (lines.length) parts.push("Memory synthesis:", ...lines);
  }
  if (shown.budget) parts.push(budgetLine(budget));
  return parts.join("\n");
}
