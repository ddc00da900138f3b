import { minMax, softmax } from "./softmax.js";

/** AIRA-Evo's parent selection: softmax over min-max-normalised scalar fitness only (spec §4). */
export function fitnessSoftmax(fitness: readonly number[], temperature = 1): number[] {
  return softmax(minMax(fitness), temperature);
}
