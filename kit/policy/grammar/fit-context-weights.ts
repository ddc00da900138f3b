import { z } from "zod";
import { optionKey, type GrammarChoice } from "./params.js";

export const FitContextConfig = z
  .object({
    minSupport: z
      .number()
      .int()
      .min(1)
      .default(5)
      .describe("Choices needed on each side (chosen option with / without the label) before a weight is set."),
    prior: z.number().min(0).default(10).describe("Shrinkage: the log ratio is scaled by n_with / (n_with + prior)."),
    smoothing: z.number().min(0).default(0.05).describe("Added to both mean outcomes inside the log ratio."),
    cap: z.number().positive().default(2).describe("Weights are clipped to [−cap, cap]."),
  })
  .strict();
export type FitContextConfig = z.infer<typeof FitContextConfig>;

/** One decision that carried context labels, with the outcome y ∈ [0, 1] of the node it wrote. */
export interface LabelledOutcome {
  readonly choice: GrammarChoice;
  readonly outcome: number;
}

/** What the fit measured for one (option key, label): the support on each side, the means and the weight. */
export interface FittedWeight {
  readonly key: string;
  readonly label: string;
  readonly nWith: number;
  readonly nWithout: number;
  readonly meanWith: number;
  readonly meanWithout: number;
  /** 0 when either side has fewer than minSupport choices. */
  readonly weight: number;
}

/**
 * The context-label weights measured from exploration (pure). For each option key k and label l, take the
 * choices of key k where l is on some of the offered options but not on all of them (only those say anything
 * about l). Split them by whether the chosen option carried l: A (with), B (without), with mean outcomes
 * ȳ_A and ȳ_B. Then
 *
 *     w(k, l) = clip( n_A / (n_A + prior) · ln((ȳ_A + s) / (ȳ_B + s)), −cap, cap )   if n_A, n_B ≥ minSupport, else 0
 *
 * so a label whose options led to e^w times the outcome of the other options gets weight w, shrunk toward 0
 * when it was seldom chosen. Exploration must not already use the labels (weights 0), or the split is biased.
 */
export function fitContextWeights(
  samples: readonly LabelledOutcome[],
  config: Partial<FitContextConfig> = {},
): FittedWeight[] {
  const c = FitContextConfig.parse(config);
  const acc = new Map<string, { key: string; label: string; a: number[]; b: number[] }>();
  for (const { choice, outcome } of samples) {
    const of = choice.optionFeatures;
    if (!of) continue;
    const key = optionKey(choice.name);
    const labels = new Set(Object.values(of).flat());
    for (const l of labels) {
      const carriers = choice.options.filter((o) => (of[o] ?? []).includes(l)).length;
      if (carriers === 0 || carriers === choice.options.length) continue;
      const id = `${key}\u0000${l}`;
      const e = acc.get(id) ?? { key, label: l, a: [], b: [] };
      ((of[choice.value] ?? []).includes(l) ? e.a : e.b).push(outcome);
      acc.set(id, e);
    }
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);
  return [...acc.values()]
    .map(({ key, label, a, b }) => {
      const ok = a.length >= c.minSupport && b.length >= c.minSupport;
      const raw = ok
        ? (a.length / (a.length + c.prior)) * Math.log((mean(a) + c.smoothing) / (mean(b) + c.smoothing))
        : 0;
      return {
        key,
        label,
        nWith: a.length,
        nWithout: b.length,
        meanWith: mean(a),
        meanWithout: mean(b),
        weight: Math.max(-c.cap, Math.min(c.cap, raw)),
      };
    })
    .sort((x, y) => x.key.localeCompare(y.key) || x.label.localeCompare(y.label));
}

/** The fitted weights as an optionWeights table (zero weights left out). */
export function weightsTable(fitted: readonly FittedWeight[], digits = 3): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const f of fitted) if (f.weight !== 0) (out[f.key] ??= {})[f.label] = Number(f.weight.toFixed(digits));
  return out;
}
