/**
 * Does the champion's improvement over the search's best first draft hold on the hidden test split?
 *
 *   valid node  = status "success" with a finite validation score,
 *   champion    = the node `championId` names where the caller has the run's own (stored) champion and it is
 *                 valid; otherwise the valid node with the best validation score (first on ties, as kit/evo's),
 *   best draft  = the valid `draft` node with the best validation score (first one on ties),
 *   s           = +1 when higher is better, −1 when lower is better,
 *   gain_val    = s · (champion.valid − draft.valid)   (≥ 0: the champion is the best on validation),
 *   gain_test   = s · (champion.test − draft.test)     (null unless both have a finite test score),
 *   flag        = gain_val > 0 and gain_test ≤ 0: the improvement holds on validation only.
 *
 * Positive gains are better in the task's direction. A test gain of exactly 0 also flags: the search's
 * validation gain bought nothing on the hidden split.
 */

/** What the comparison needs of a node (kit/evo's EvoNode has all of it). */
export interface ComparedNode {
  readonly nodeId: string;
  readonly operator: string;
  readonly status: string;
  readonly validScore: number | null;
  /** Hidden test score where the node's submission was graded, else null. */
  readonly testScore: number | null;
}

/** One side of the comparison. */
export interface ComparedScores {
  readonly nodeId: string;
  readonly operator: string;
  readonly valid: number;
  readonly test: number | null;
}

/**
 * - `agree`: both gains positive (the improvement holds on the hidden test).
 * - `disagree`: a validation gain with a test gain ≤ 0 (flagged).
 * - `no-test`: the champion or the best draft has no hidden test score.
 * - `no-gain`: the champion does not beat the best draft on validation (it is that draft, or ties it).
 * - `no-draft`: no draft produced a validation score (the champion descends from a repaired draft).
 * - `no-champion`: no node produced a validation score.
 */
export type ChampionDraftState = "agree" | "disagree" | "no-test" | "no-gain" | "no-draft" | "no-champion";

export interface ChampionVsDraft {
  readonly champion: ComparedScores | null;
  readonly bestDraft: ComparedScores | null;
  /** The champion's validation gain over the best draft, positive = better; null without both. */
  readonly validGain: number | null;
  /** The champion's hidden test gain over the best draft, positive = better; null without both test scores. */
  readonly testGain: number | null;
  readonly state: ChampionDraftState;
  /** The validation gain does not hold on the hidden test (state `disagree`). */
  readonly flag: boolean;
}

const isValid = (n: ComparedNode) => n.status === "success" && n.validScore !== null && Number.isFinite(n.validScore);
const finite = (x: number | null): x is number => x !== null && Number.isFinite(x);

function best(nodes: readonly ComparedNode[], s: number): ComparedScores | null {
  let b: ComparedNode | null = null;
  for (const n of nodes) if (isValid(n) && (b === null || s * n.validScore! > s * b.validScore!)) b = n;
  return (
    b && {
      nodeId: b.nodeId,
      operator: b.operator,
      valid: b.validScore!,
      test: finite(b.testScore) ? b.testScore : null,
    }
  );
}

/** The champion against the best draft of one run, in the task's direction (formula above). */
export function championVsDraft(
  nodes: readonly ComparedNode[],
  higherIsBetter: boolean,
  championId?: string | null,
): ChampionVsDraft {
  const s = higherIsBetter ? 1 : -1;
  const named = championId ? nodes.filter((n) => n.nodeId === championId && isValid(n)) : [];
  const champion = best(named.length ? named : nodes, s);
  const bestDraft = best(
    nodes.filter((n) => n.operator === "draft"),
    s,
  );
  const validGain = champion && bestDraft ? s * (champion.valid - bestDraft.valid) : null;
  const testGain =
    champion && bestDraft && champion.test !== null && bestDraft.test !== null
      ? s * (champion.test - bestDraft.test)
      : null;
  const state: ChampionDraftState = !champion
    ? "no-champion"
    : !bestDraft
      ? "no-draft"
      : !(validGain! > 0)
        ? "no-gain"
        : testGain === null
          ? "no-test"
          : testGain > 0
            ? "agree"
            : "disagree";
  return { champion, bestDraft, validGain, testGain, state, flag: state === "disagree" };
}
