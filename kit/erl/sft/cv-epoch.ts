/**
 * Cross-validated early stopping: the epoch to train for, chosen on K folds rather than on one split.
 *
 * Fold f held out n_f examples and recorded their mean log-likelihood LL_f(e) after e = 0 … E epochs of training on
 * the other folds (e = 0: the starting params). The pooled curve is the example-weighted mean
 *   L̄(e) = Σ_f n_f · LL_f(e) / Σ_f n_f,
 * and e* = argmax_e L̄(e), the earliest on ties (so 0, the starting params, unless an epoch is strictly better).
 * One split of ~10 tasks decides e* by which tasks it happens to hold out
 * (bench/erl/runs/2026-12-06-learning-22-why-arm-b.md); K folds hold every task out once, so e* reads all of them.
 * Pure.
 */
export function crossValidatedEpoch(curves: readonly { readonly n: number; readonly ll: readonly number[] }[]): {
  epoch: number;
  pooled: number[];
} {
  const used = curves.filter((c) => c.n > 0);
  if (!used.length) throw new RangeError("crossValidatedEpoch needs at least one fold with held-out examples");
  const len = used[0]!.ll.length;
  if (!len || used.some((c) => c.ll.length !== len))
    throw new RangeError("every fold's curve needs the same epochs 0 … E (at least epoch 0)");
  const total = used.reduce((s, c) => s + c.n, 0);
  const pooled = Array.from({ length: len }, (_, e) => used.reduce((s, c) => s + c.n * c.ll[e]!, 0) / total);
  let epoch = 0;
  for (let e = 1; e < len; e++) if (pooled[e]! > pooled[epoch]!) epoch = e;
  return { epoch, pooled };
}
