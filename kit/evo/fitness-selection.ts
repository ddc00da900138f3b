import { softmax } from "./softmax.js";

/** AIRA-Evo's value of a single score (one distinct fitness, or none yet): neither good nor bad. */
export const AIRA_NEUTRAL_FITNESS = 0.5;

/**
 * AIRA-Evo's normalised fitness (reference code: the solutions database's global range), direction-aware
 * because `f` is the signed score (higher is better):
 *   f̃ = clip((f − lo) / (hi − lo), 0, 1), lo/hi = min/max signed fitness of **every scored node of the run**
 *   (not only the island); hi = lo → 0.5; no score → 0.
 */
export function globalNormalisedFitness(f: number | null, lo: number, hi: number): number {
  if (f === null || !Number.isFinite(f)) return 0;
  if (!(hi > lo)) return AIRA_NEUTRAL_FITNESS;
  return Math.min(1, Math.max(0, (f - lo) / (hi - lo)));
}

/**
 * AIRA-Evo's parent selection (docs/paper-map.md: Fig. 5 search loop): P(i) = softmax(f̃_i / T) over the island
 * members, f̃ by `globalNormalisedFitness` with lo/hi taken over `all` (the run's scored nodes; default the members).
 */
export function fitnessSoftmax(
  fitness: readonly number[],
  all: readonly number[] = fitness,
  temperature = 1,
): number[] {
  const finite = all.filter(Number.isFinite);
  const lo = finite.length ? Math.min(...finite) : 0;
  const hi = finite.length ? Math.max(...finite) : 0;
  return softmax(
    fitness.map((f) => globalNormalisedFitness(f, lo, hi)),
    temperature,
  );
}
