import { z } from "zod";

/** When a champion's validation–test gap counts as large (validationGap). */
export const ValidationGapConfig = z
  .object({
    /** A gap is large when it exceeds this share of the scale (10% of the scores' magnitude, or of the trivial →
     * reference distance). */
    threshold: z.number().positive().default(0.1),
  })
  .strict();
export type ValidationGapConfig = z.infer<typeof ValidationGapConfig>;

export interface ValidationGap {
  /** d·(valid − test): > 0 when validation promised more than the hidden test gave. */
  readonly gap: number;
  /** gap / scale. */
  readonly relative: number;
  /** What the gap is measured against. */
  readonly scale: "baselines" | "scores";
  readonly large: boolean;
}

/**
 * Validation–test gap of a champion, direction-aware and scaled to the metric:
 *   gap      = d · (valid − test), d = +1 when higher is better, −1 when lower is better
 *              (> 0: the validation score was better than the hidden test score, i.e. optimistic);
 *   scale    = |reference − trivial| when the task's baselines are known (the gap in normalised-score
 *              units, normalized-score.ts in kit/eval), else max(|valid|, |test|) (a share of the scores);
 *   relative = gap / scale;   large ⇔ relative > threshold (default 0.1).
 * Only optimism is flagged: a test score better than validation (gap < 0) never counts as large.
 * Null when either score is missing or not finite, or the scale is 0.
 */
export function validationGap(
  valid: number | null | undefined,
  test: number | null | undefined,
  higherIsBetter: boolean,
  opts: {
    baselines?: { readonly trivial: number; readonly reference: number };
    config?: Partial<ValidationGapConfig>;
  } = {},
): ValidationGap | null {
  if (
    valid === null ||
    valid === undefined ||
    test === null ||
    test === undefined ||
    !Number.isFinite(valid) ||
    !Number.isFinite(test)
  )
    return null;
  const { threshold } = ValidationGapConfig.parse(opts.config ?? {});
  const gap = (higherIsBetter ? 1 : -1) * (valid - test);
  const b = opts.baselines;
  const byBaselines =
    b !== undefined && Number.isFinite(b.trivial) && Number.isFinite(b.reference) && b.reference !== b.trivial;
  const scale = byBaselines ? Math.abs(b.reference - b.trivial) : Math.max(Math.abs(valid), Math.abs(test));
  if (scale === 0) return null;
  const relative = gap / scale;
  return { gap, relative, scale: byBaselines ? "baselines" : "scores", large: relative > threshold };
}
