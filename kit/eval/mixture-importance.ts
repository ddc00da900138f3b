import { logSumExp } from "../util/index.js";
import { EvalError } from "./errors.js";

/**
 * Multiple importance sampling with the balance heuristic (Veach & Guibas 1995; Owen 2013, §9.12): the expectation
 * of a program's value under a target policy π, estimated from a pool of programs drawn by K policies q_1 … q_K
 * (n_k programs from q_k, N = Σ n_k), every program's probability known under every policy:
 *
 *     w(x_i) = π(x_i) / q̄(x_i),   q̄(x) = Σ_k (n_k / N) · q_k(x)      (mixture weight of pool program i)
 *     μ̂ = Σ_i w(x_i) f(x_i) / Σ_i w(x_i)                                 (self-normalised estimate of E_π[f])
 *
 * A program drawn by any q_k counts for every target, so each estimate reads all N programs of a task instead of the
 * n_k its own policy drew. Where π is one of the pool's policies, w ≤ N / n_k, so no program dominates; where π lies
 * outside the pool, w is unbounded and the effective sample size (Kish) says how many programs the estimate is worth:
 *
 *     ESS = (Σ_i w_i)² / Σ_i w_i²   (N when every weight is equal, 1 when one program carries all).
 *
 * Self-normalising trades the plain estimator's unbiasedness for a bounded estimate (a mean of f's values); its bias
 * is O(1/N). Log-probabilities in, weights out; pure.
 */
export function mixtureWeights(
  /** log π(x_i) of each pool program under the target. */
  target: readonly number[],
  /** log q_k(x_i): for each pool program, its log-probability under each of the K pool policies. */
  pool: readonly (readonly number[])[],
  /** n_k: programs each pool policy drew (the mixture's proportions). */
  counts: readonly number[],
): number[] {
  if (target.length !== pool.length)
    throw new EvalError(
      `mixtureWeights: ${target.length} target log-probabilities for ${pool.length} programs: pass one per program`,
    );
  const total = counts.reduce((s, n) => s + n, 0);
  if (!(total > 0))
    throw new EvalError("mixtureWeights: the pool has no programs (every count is 0): pass the draws of each policy");
  const logShare = counts.map((n) => (n > 0 ? Math.log(n / total) : -Infinity));
  return pool.map((lq, i) => {
    if (lq.length !== counts.length)
      throw new EvalError(
        `mixtureWeights: program ${i} has ${lq.length} pool log-probabilities, not ${counts.length}: one per policy`,
      );
    const terms = lq.map((l, k) => l + logShare[k]!);
    // A program no pool policy could draw cannot be in the pool; weight 0 keeps the estimate finite.
    return terms.every((t) => t === -Infinity) ? 0 : Math.exp(target[i]! - logSumExp(terms));
  });
}

/** Σ w f / Σ w: the self-normalised estimate (null when every weight is 0). */
export function weightedMean(values: readonly number[], weights: readonly number[]): number | null {
  let sw = 0;
  let swf = 0;
  values.forEach((v, i) => {
    sw += weights[i]!;
    swf += weights[i]! * v;
  });
  return sw > 0 ? swf / sw : null;
}

/** Kish's effective sample size (Σ w)² / Σ w² (0 when every weight is 0). */
export function effectiveSampleSize(weights: readonly number[]): number {
  const s = weights.reduce((a, w) => a + w, 0);
  const s2 = weights.reduce((a, w) => a + w * w, 0);
  return s2 > 0 ? (s * s) / s2 : 0;
}

/**
 * P(a program of π_A beats one of π_B) estimated on one pool (the win probability of kit/erl's win rate, weighted):
 *
 *     P̂ = Σ_{i≠j} w_A(x_i) w_B(x_j) c(x_i, x_j) / Σ_{i≠j} w_A(x_i) w_B(x_j),   c = 1 win, ½ tie, 0 loss
 *
 * over ordered pairs of distinct pool programs (a program is not compared with itself), where program i beats j when
 * keys[i] > keys[j] (higher is better; −Infinity for a failed program, so two failures tie). Computed in
 * O(N log N) by sorting the keys. null when no pair has weight.
 */
export function weightedWinProbability(
  keys: readonly number[],
  wa: readonly number[],
  wb: readonly number[],
): number | null {
  const order = keys.map((_, i) => i).sort((i, j) => keys[i]! - keys[j]! || 0);
  const sameKey = (i: number, j: number) => keys[i] === keys[j];
  let below = 0; // Σ w_B of the programs with a lower key
  let num = 0;
  for (let g = 0; g < order.length;) {
    let e = g;
    let eq = 0;
    while (e < order.length && sameKey(order[e]!, order[g]!)) eq += wb[order[e++]!]!;
    for (let m = g; m < e; m++) {
      const i = order[m]!;
      num += wa[i]! * (below + (eq - wb[i]!) / 2);
    }
    below += eq;
    g = e;
  }
  const sa = wa.reduce((s, w) => s + w, 0);
  const den = sa * below - wa.reduce((s, w, i) => s + w * wb[i]!, 0);
  return den > 0 ? num / den : null;
}
