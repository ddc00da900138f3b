/**
 * How a run's validation scores carry to the hidden test (the search picks by validation; the test decides).
 *
 * With s = +1 when higher is better, −1 when lower is better, and V = the nodes that succeeded with a finite
 * validation and a finite hidden test score:
 *   champion c      = the run's champion (championVsDraft's rule), best draft d = the best draft on validation;
 *   best on test o  = argmax over V of s·test (first on ties): what an oracle that saw the test would submit;
 *   gain over draft = s·(test(c) − test(d))       (> 0: the search beat its own best first draft on the test);
 *   regret          = s·(test(o) − test(c)) ≥ 0   (what picking by validation left on the hidden test);
 *   optimism        = mean over V of s·(valid − test) (> 0: validation promised more than the test gave);
 *   ρ               = Spearman rank correlation of valid and test over V (average ranks on ties);
 *                     null when |V| < 3 or either score is constant over V.
 * Gains, regret and optimism are in the metric's units. Each node also carries the validation scheme its score
 * came from (validation-scheme.ts), where its code is known.
 */
import { championVsDraft, type ChampionVsDraft } from "./champion-vs-draft.js";
import { validationScheme, type ValidationScheme } from "./validation-scheme.js";

/** What the view needs of a node. */
export interface TransferNode {
  readonly node_id: string;
  readonly operator: string;
  readonly status: string | null;
  readonly valid_score: number | null;
  readonly test_score?: number | null;
  /** The program (for its validation scheme); absent: the scheme is unknown. */
  readonly code?: string | null;
}

/** One node of the validation-vs-test scatter. */
export interface TransferPoint {
  readonly node_id: string;
  readonly operator: string;
  readonly valid: number;
  readonly test: number;
  readonly scheme: ValidationScheme;
}

export interface ValidationTransfer {
  readonly champion_vs_draft: ChampionVsDraft;
  /** The node with the best hidden test score among those with both scores; null when none. */
  readonly best_on_test: { readonly node_id: string; readonly operator: string; readonly test: number } | null;
  /** s·(test(best on test) − test(champion)); null without a champion test score. */
  readonly regret: number | null;
  readonly optimism: number | null;
  readonly spearman: number | null;
  /** The nodes with both scores, in the order given. */
  readonly points: TransferPoint[];
  /** The validation scheme of the champion's and the best draft's scores (unknown without their code). */
  readonly champion_scheme: ValidationScheme | null;
  readonly best_draft_scheme: ValidationScheme | null;
}

const finite = (x: number | null | undefined): x is number => typeof x === "number" && Number.isFinite(x);

/** Ranks 1..n, ties sharing their average rank. */
export function averageRanks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(xs.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's ρ: Pearson's correlation of the average ranks; null when n < 3 or a side is constant. */
export function spearman(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length || a.length < 3) return null;
  const [ra, rb] = [averageRanks(a), averageRanks(b)];
  const mean = (r: number[]) => r.reduce((s, x) => s + x, 0) / r.length;
  const [ma, mb] = [mean(ra), mean(rb)];
  let sab = 0,
    saa = 0,
    sbb = 0;
  for (let i = 0; i < ra.length; i++) {
    sab += (ra[i]! - ma) * (rb[i]! - mb);
    saa += (ra[i]! - ma) ** 2;
    sbb += (rb[i]! - mb) ** 2;
  }
  return saa === 0 || sbb === 0 ? null : sab / Math.sqrt(saa * sbb);
}

/** The transfer view of one run (formulas above). */
export function validationTransfer(
  nodes: readonly TransferNode[],
  higherIsBetter: boolean,
  championId?: string | null,
): ValidationTransfer {
  const s = higherIsBetter ? 1 : -1;
  const cvd = championVsDraft(
    nodes.map((n) => ({
      nodeId: n.node_id,
      operator: n.operator,
      status: n.status ?? "",
      validScore: n.valid_score,
      testScore: n.test_score ?? null,
    })),
    higherIsBetter,
    championId,
  );
  const both = nodes.filter((n) => n.status === "success" && finite(n.valid_score) && finite(n.test_score));
  const points = both.map((n) => ({
    node_id: n.node_id,
    operator: n.operator,
    valid: n.valid_score!,
    test: n.test_score!,
    scheme: validationScheme(n.code),
  }));
  const o = points.reduce<TransferPoint | null>((b, p) => (b === null || s * p.test > s * b.test ? p : b), null);
  const cTest = cvd.champion?.test ?? null;
  const code = (id: string | undefined) => nodes.find((n) => n.node_id === id)?.code;
  return {
    champion_vs_draft: cvd,
    best_on_test: o && { node_id: o.node_id, operator: o.operator, test: o.test },
    regret: o && cTest !== null ? s * (o.test - cTest) : null,
    optimism: points.length ? points.reduce((t, p) => t + s * (p.valid - p.test), 0) / points.length : null,
    spearman: spearman(
      points.map((p) => p.valid),
      points.map((p) => p.test),
    ),
    points,
    champion_scheme: cvd.champion ? validationScheme(code(cvd.champion.nodeId)) : null,
    best_draft_scheme: cvd.bestDraft ? validationScheme(code(cvd.bestDraft.nodeId)) : null,
  };
}
