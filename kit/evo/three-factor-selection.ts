import { z } from "zod";
import { minMax, rankNormalise, softmax } from "./softmax.js";

/**
 * Three-factor parent selection (the paper's Eq. 4):
 *   s̃_i = normalised validation score over the island (direction-aware: candidates carry
 *         fitness, i.e. the score signed so that higher is better),
 *   Δ̃_i = positive improvement over the best parent / the largest such gain in the island,
 *   ν_i  = 1 / sqrt(1 + N_f) with N_f the island members' cards in the candidate's method family,
 *         the candidate itself excluded,
 *   u_i  = λs s̃_i + λΔ Δ̃_i + λn ν_i,   P(i) = softmax(u_i / T).
 */
export interface SelectionCandidate {
  readonly nodeId: string;
  /** Signed score: higher is better whatever the metric's direction. */
  readonly fitness: number;
  /** Fitness of the best scored parent; null for drafts or parents without a score. */
  readonly bestParentFitness: number | null;
  /** N_f: the other island members' cards in this candidate's method family. */
  readonly familyCount: number;
}

export const SELECTION_PRESETS = {
  /** The paper's text (worked example). */
  paper: { lambdaScore: 1.0, lambdaGain: 0.6, lambdaNovelty: 0.3, temperature: 1 },
  /** The reference code's defaults. */
  reference: { lambdaScore: 1.0, lambdaGain: 0.4, lambdaNovelty: 0.25, temperature: 1 },
} as const;
export type SelectionPreset = keyof typeof SELECTION_PRESETS;

export const ThreeFactorConfig = z
  .object({
    preset: z
      .enum(["paper", "reference", "custom"])
      .default("reference")
      .describe("Weight preset: paper = 1.0/0.6/0.3, reference = 1.0/0.4/0.25; custom uses the lambda fields."),
    lambdaScore: z.number().default(1.0).describe("λs, weight of the normalised score (custom preset only)."),
    lambdaGain: z
      .number()
      .default(0.4)
      .describe("λΔ, weight of the normalised positive gain over the best parent (custom preset only)."),
    lambdaNovelty: z
      .number()
      .default(0.25)
      .describe("λn, weight of method-family novelty 1/sqrt(1+N_f) (custom preset only)."),
    temperature: z.number().positive().default(1).describe("Softmax temperature T (custom preset only)."),
    normalisation: z
      .enum(["minmax", "rank"])
      .default("minmax")
      .describe("How scores are normalised over the island: min-max or rank."),
  })
  .strict();
export type ThreeFactorConfig = z.infer<typeof ThreeFactorConfig>;

export interface SelectionWeights {
  readonly lambdaScore: number;
  readonly lambdaGain: number;
  readonly lambdaNovelty: number;
  readonly temperature: number;
}

export function selectionWeights(cfg: Partial<ThreeFactorConfig> = {}): SelectionWeights {
  const c = ThreeFactorConfig.parse(cfg);
  return c.preset === "custom" ? c : SELECTION_PRESETS[c.preset];
}

export interface SelectionScores {
  readonly nodeId: string;
  readonly score: number;
  readonly gain: number;
  readonly novelty: number;
  readonly utility: number;
  readonly probability: number;
}

/** Utilities and probabilities for every candidate, in input order (empty input → empty output). */
export function threeFactorSelection(
  candidates: readonly SelectionCandidate[],
  weights: SelectionWeights = SELECTION_PRESETS.reference,
  normalisation: "minmax" | "rank" = "minmax",
): SelectionScores[] {
  const fit = candidates.map((c) => c.fitness);
  const s = normalisation === "rank" ? rankNormalise(fit) : minMax(fit);
  const raw = candidates.map((c) => (c.bestParentFitness === null ? 0 : Math.max(0, c.fitness - c.bestParentFitness)));
  const maxGain = Math.max(0, ...raw);
  const gain = raw.map((g) => (maxGain > 0 ? g / maxGain : 0));
  const nov = candidates.map((c) => 1 / Math.sqrt(1 + c.familyCount));
  const u = candidates.map(
    (_, i) => weights.lambdaScore * s[i]! + weights.lambdaGain * gain[i]! + weights.lambdaNovelty * nov[i]!,
  );
  const p = softmax(u, weights.temperature);
  return candidates.map((c, i) => ({
    nodeId: c.nodeId,
    score: s[i]!,
    gain: gain[i]!,
    novelty: nov[i]!,
    utility: u[i]!,
    probability: p[i]!,
  }));
}
