import { logSumExp } from "../../util/index.js";

/**
 * Entropic advantage (the paper's Fig. 6), applied to rewards *after* the adaptive bounds:
 *   c_i = r_i − max_j r_j;  q_i(β) ∝ exp(β c_i);
 *   β solves KL(q_β ‖ Uniform(K)) = log 2: the upper bound starts at 1 and doubles (capped at 1e6;
 *   if KL is still below log 2 there, β = 1e6), then 60 bisection steps keep KL(lo) < log 2 ≤ KL(hi),
 *   and β = hi;
 *   w_i = exp(β c_i) / (mean_{j≠i} exp(β c_j) + 1e-12);  A_i = w_i − 1.
 * Fewer than 2 samples or all rewards equal → β = 0 and every A_i = 0.
 */
export interface EntropicAdvantage {
  readonly beta: number;
  readonly advantages: number[];
}

export const BETA_CAP = 1e6;
const LOG2 = Math.log(2);

/** KL(q_β ‖ Uniform(K)) = log K + Σ q_i log q_i for q_i ∝ exp(β c_i), c_i ≤ 0 (pure). */
export function klToUniform(c: readonly number[], beta: number): number {
  const z = c.map((x) => beta * x);
  const lse = logSumExp(z);
  return (
    Math.log(c.length) +
    z.reduce((s, v) => {
      const lq = v - lse;
      return s + (lq > -745 ? Math.exp(lq) * lq : 0);
    }, 0)
  );
}

export function entropicAdvantage(rewards: readonly number[]): EntropicAdvantage {
  const k = rewards.length;
  const max = Math.max(...rewards);
  if (k < 2 || rewards.every((r) => r === rewards[0])) return { beta: 0, advantages: rewards.map(() => 0) };
  const c = rewards.map((r) => r - max);
  let lo = 0;
  let hi = 1;
  while (klToUniform(c, hi) < LOG2 && hi < BETA_CAP) {
    lo = hi;
    hi = Math.min(2 * hi, BETA_CAP);
  }
  if (klToUniform(c, hi) >= LOG2) {
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (klToUniform(c, mid) < LOG2) lo = mid;
      else hi = mid;
    }
  }
  const e = c.map((x) => Math.exp(hi * x));
  const advantages = e.map((ei, i) => {
    let others = 0;
    e.forEach((ej, j) => {
      if (j !== i) others += ej;
    });
    return ei / (others / (k - 1) + 1e-12) - 1;
  });
  return { beta: hi, advantages };
}

/**
 * GRPO's group-normalised advantage, for comparison: A_i = (r_i − mean r) / (std r + 1e-6), std the
 * sample standard deviation (n − 1); fewer than 2 samples or all rewards equal → all 0.
 */
export function grpoAdvantage(rewards: readonly number[]): number[] {
  const k = rewards.length;
  if (k < 2 || rewards.every((r) => r === rewards[0])) return rewards.map(() => 0);
  const mean = rewards.reduce((s, r) => s + r, 0) / k;
  const sd = Math.sqrt(rewards.reduce((s, r) => s + (r - mean) ** 2, 0) / (k - 1));
  return rewards.map((r) => (r - mean) / (sd + 1e-6));
}
