import { z } from "zod";

/**
 * Adaptive reward bounds (the paper's Fig. 6), over *signed* scores s̃ (higher is better; non-finite = failed):
 * 1. sort the finite scores of history + group descending: x(1) ≥ … ≥ x(K);
 * 2. B = x(1); anchor = x(16) (x(K) when K < 16) — or x(8), the mean, or the median by `anchor`;
 *    W = anchor − shift·(B − anchor), shift = 0.25;
 * 3. static bounds clamp when given: B = min(B, B_static), W = max(W, W_static)
 *    (`anchor: "static"` uses B_static, W_static alone);
 * 4. if B ≤ W then B = W + 1e-6;
 * 5. r = clip((s̃ − W)/(B − W), 0, 1)^α (α = 1); exactly one finite score available → r = 1 for it;
 *    a non-finite score → r = 0.
 */
export const AdaptiveBoundsOptions = z
  .object({
    anchor: z
      .enum(["top16", "top8", "mean", "median", "static"])
      .default("top16")
      .describe(
        "Anchor of the worst bound: the 16th/8th best score (the lowest when fewer), the mean, the " +
          "median, or the static bounds only (falls back to top16 when no static bounds are given).",
      ),
    shift: z.number().min(0).default(0.25).describe("W = anchor − shift·(B − anchor)."),
    alpha: z.number().positive().default(1).describe("Reward exponent α: r = clip(...)^α."),
    staticBest: z
      .number()
      .optional()
      .describe(
        "Static best bound (signed), e.g. max(the metric's theoretical best, the leaderboard's best): " +
          "B = min(B, staticBest).",
      ),
    staticWorst: z.number().optional().describe("Static worst bound (signed): W = max(W, staticWorst)."),
  })
  .strict();
export type AdaptiveBoundsOptions = z.input<typeof AdaptiveBoundsOptions>;

export interface AdaptiveBounds {
  /** B; null when no score is finite. */
  readonly best: number | null;
  /** W; null when no score is finite. */
  readonly worst: number | null;
  /** One reward in [0, 1] per group score, in group order. */
  readonly rewards: number[];
}

/** Signed score: higher is better whatever the metric's direction (null/NaN → NaN = failed). */
export function signedScore(score: number | null | undefined, higherIsBetter: boolean): number {
  if (score === null || score === undefined || !Number.isFinite(score)) return Number.NaN;
  return higherIsBetter ? score : -score;
}

function anchorOf(sorted: readonly number[], mode: "top16" | "top8" | "mean" | "median"): number {
  const k = sorted.length;
  if (mode === "top16") return sorted[Math.min(16, k) - 1]!;
  if (mode === "top8") return sorted[Math.min(8, k) - 1]!;
  if (mode === "mean") return sorted.reduce((s, x) => s + x, 0) / k;
  const m = Math.floor(k / 2);
  return k % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

/** Bounds and rewards of one group given the task's earlier scores (pure; see the formula above). */
export function adaptiveBounds(
  history: readonly number[],
  group: readonly number[],
  opts: AdaptiveBoundsOptions = {},
): AdaptiveBounds {
  const o = AdaptiveBoundsOptions.parse(opts);
  const finite = [...history, ...group].filter((x) => Number.isFinite(x)).sort((a, b) => b - a);
  if (finite.length === 0) return { best: null, worst: null, rewards: group.map(() => 0) };
  const hasStatic = o.staticBest !== undefined && o.staticWorst !== undefined;
  let best: number;
  let worst: number;
  if (o.anchor === "static" && hasStatic) {
    best = o.staticBest!;
    worst = o.staticWorst!;
  } else {
    best = finite[0]!;
    const anchor = anchorOf(finite, o.anchor === "static" ? "top16" : o.anchor);
    worst = anchor - o.shift * (best - anchor);
    if (o.staticBest !== undefined) best = Math.min(best, o.staticBest);
    if (o.staticWorst !== undefined) worst = Math.max(worst, o.staticWorst);
  }
  if (best <= worst) best = worst + 1e-6;
  const single = finite.length === 1;
  const rewards = group.map((s) => (single && Number.isFinite(s) ? 1 : boundedReward(s, best, worst, o.alpha)));
  return { best, worst, rewards };
}

/**
 * Step 5 for one signed score under given bounds: clip((s̃ − W)/(B − W), 0, 1)^α; non-finite s̃ → 0.
 * Also scores a parent on its child group's scale (parent-bonus.ts).
 */
export function boundedReward(s: number, best: number, worst: number, alpha = 1): number {
  if (!Number.isFinite(s)) return 0;
  return Math.min(1, Math.max(0, (s - worst) / (best - worst))) ** alpha;
}
