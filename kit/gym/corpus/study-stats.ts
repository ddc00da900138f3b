import type { JoinCell } from "./content-profile.js";

// The chance-agreement statistics of study identity's same-entities rule (study-join.ts), pure.

/** p0 = Σ_v pA(v)·pB(v): the chance that two independent draws, one from each label list, agree. */
export function chanceAgreement(a: readonly JoinCell[], b: readonly JoinCell[]): number {
  const freq = (xs: readonly JoinCell[]) => {
    const m = new Map<JoinCell, number>();
    for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1 / xs.length);
    return m;
  };
  const [fa, fb] = [freq(a), freq(b)];
  let p = 0;
  for (const [v, pa] of fa) p += pa * (fb.get(v) ?? 0);
  return p;
}

/** -log10 P(X >= k), X ~ Binomial(n, p): the upper tail summed in log space (0 when k <= 0). */
export function binomialSurprise(k: number, n: number, p: number): number {
  if (k <= 0) return 0;
  if (p <= 0) return Infinity;
  if (p >= 1) return 0;
  const logs: number[] = [];
  for (let i = k; i <= n; i++) logs.push(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
  const m = logs.reduce((x, y) => Math.max(x, y), -Infinity);
  const lse = m + Math.log(logs.reduce((s, x) => s + Math.exp(x - m), 0));
  return Math.max(0, -lse / Math.LN10);
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

const LOG_FACT: number[] = [0];
function logFactorial(n: number): number {
  for (let i = LOG_FACT.length; i <= n; i++) LOG_FACT.push(LOG_FACT[i - 1]! + Math.log(i));
  return LOG_FACT[n]!;
}
