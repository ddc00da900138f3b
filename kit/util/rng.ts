/**
 * Seeded randomness, passed explicitly to everything that samples (selection, operators,
 * policies), so a seed fixes a run. mulberry32: small, fast, good enough for search.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** A fresh generator derived from this one (for independent streams). */
  fork(): Rng;
}

export function createRng(seed: number): Rng {
  let a = (seed >>> 0) ^ 0x9e3779b9;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    fork: () => createRng(Math.floor(next() * 2 ** 32)),
  };
}

/** Sample an index from unnormalised non-negative weights. */
export function sampleIndex(rng: Rng, weights: readonly number[]): number {
  const total = weights.reduce((s, w) => s + w, 0);
  if (!(total > 0)) return rng.int(weights.length);
  let u = rng.next() * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!;
    if (u < 0) return i;
  }
  return weights.length - 1;
}

/**
 * A seed derived from `seed` and a key (FNV-1a over the key's UTF-16 code units, started at `seed`): one stream
 * per key, so adding keys (tasks, attempts) does not change another key's draws.
 */
export function keyedSeed(seed: number, key: string): number {
  let h = seed >>> 0;
  for (const ch of key) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}
