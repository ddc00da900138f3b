import { z } from "zod";
import { gradientStep, logSoftmax, type GrammarChoice, type GrammarParams } from "../../policy/grammar/index.js";

/**
 * GSPO on the grammar policy (the reference runs' objective; docs/paper-map.md: RL mechanisms). For program y_i
 * with |y_i| recorded decisions, old-policy log-probability log π_old(y_i) and advantage A_i:
 *   s_i(θ) = exp((log π_θ(y_i) − log π_old(y_i)) / |y_i|)          (sequence-level ratio)
 *   J(θ)   = mean_i min(s_i A_i, clip(s_i, 1 − ε, 1 + ε) A_i)
 *   ∇J     = mean_i [unclipped_i] · A_i s_i / |y_i| · ∇ log π_θ(y_i)
 * where a sample is clipped (no gradient) when A_i > 0 and s_i > 1 + ε, or A_i < 0 and s_i < 1 − ε.
 * Each epoch is one full-batch ascent step θ ← θ + lr·∇J, through the grammar policy's
 * gradientStep (weights A_i s_i / (|y_i| N)). log π_θ(y) = Σ over the recorded decisions of
 * log softmax(θ)[value] over the options offered, which equals logProb's replay of the program.
 */
export const GspoOptions = z
  .object({
    lr: z.number().positive().default(1).describe("Learning rate of the ascent step on the logits."),
    epsilon: z
      .number()
      .positive()
      .default(0.2)
      .describe(
        "Clip range ε of the sequence ratio (the LLM reference runs use 3.5e-4 at lr 1e-6; the " +
          "grammar policy's logits move far more per step).",
      ),
    epochs: z
      .number()
      .int()
      .positive()
      .default(1)
      .describe("Ascent steps per batch (the ratio moves away from 1 after the first)."),
  })
  .strict();
export type GspoOptions = z.input<typeof GspoOptions>;

export interface GspoSample {
  readonly choices: readonly GrammarChoice[];
  readonly oldLogProb: number;
  readonly advantage: number;
}

export interface GspoStats {
  /** J before each epoch's step. */
  readonly objective: number[];
  /** Share of samples clipped, per epoch. */
  readonly clippedShare: number[];
  readonly meanRatio: number[];
}

/** log π_θ(y) from its recorded decisions (−Infinity for a value outside the offered options). */
export function sequenceLogProb(params: GrammarParams, choices: readonly GrammarChoice[]): number {
  return choices.reduce((s, c) => {
    const i = c.options.indexOf(String(c.value));
    return s + (i < 0 ? -Infinity : logSoftmax(params, c.name, c.options, c.features ?? [])[i]!);
  }, 0);
}

export function gspoUpdate(
  params: GrammarParams,
  samples: readonly GspoSample[],
  opts: GspoOptions = {},
): { params: GrammarParams; stats: GspoStats } {
  const o = GspoOptions.parse(opts);
  const usable = samples.filter((s) => s.choices.length > 0 && Number.isFinite(s.oldLogProb) && s.advantage !== 0);
  const stats: GspoStats = { objective: [], clippedShare: [], meanRatio: [] };
  let theta = params;
  if (usable.length === 0) return { params, stats };
  const n = samples.length;
  for (let e = 0; e < o.epochs; e++) {
    let obj = 0;
    let clipped = 0;
    let ratios = 0;
    const weighted = usable.map((s) => {
      const len = s.choices.length;
      const ratio = Math.exp((sequenceLogProb(theta, s.choices) - s.oldLogProb) / len);
      const cl = Math.min(Math.max(ratio, 1 - o.epsilon), 1 + o.epsilon);
      obj += Math.min(ratio * s.advantage, cl * s.advantage) / n;
      ratios += ratio / usable.length;
      const isClipped = (s.advantage > 0 && ratio > 1 + o.epsilon) || (s.advantage < 0 && ratio < 1 - o.epsilon);
      if (isClipped) clipped++;
      return {
        choices: s.choices,
        weight: isClipped || !Number.isFinite(ratio) ? 0 : (s.advantage * ratio) / (len * n),
      };
    });
    stats.objective.push(obj);
    stats.clippedShare.push(clipped / usable.length);
    stats.meanRatio.push(ratios);
    theta = gradientStep(
      theta,
      weighted.filter((w) => w.weight !== 0),
      o.lr,
    );
  }
  return { params: theta, stats };
}
