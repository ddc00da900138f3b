import { describe, expect, it } from "vitest";
import { createRng } from "../util/index.js";
import { effectiveSampleSize, mixtureWeights, weightedMean, weightedWinProbability } from "./mixture-importance.js";

const ln = Math.log;

describe("mixtureWeights (balance heuristic)", () => {
  it.each([
    // Two policies, one program each. q1 = (0.5, 0.5), q2 = (0.9, 0.1) over programs A, B; the pool drew A from q1
    // and B from q2, so q̄(A) = (0.5 + 0.9) / 2 = 0.7, q̄(B) = (0.5 + 0.1) / 2 = 0.3.
    { what: "target q1", target: [ln(0.5), ln(0.5)], w: [0.5 / 0.7, 0.5 / 0.3] },
    { what: "target q2", target: [ln(0.9), ln(0.1)], w: [0.9 / 0.7, 0.1 / 0.3] },
    { what: "target outside the pool", target: [ln(0.2), ln(0.8)], w: [0.2 / 0.7, 0.8 / 0.3] },
  ])("$what", ({ target, w }) => {
    const pool = [
      [ln(0.5), ln(0.9)],
      [ln(0.5), ln(0.1)],
    ];
    mixtureWeights(target, pool, [1, 1]).forEach((x, i) => expect(x).toBeCloseTo(w[i]!, 12));
  });

  it("unequal counts weight the mixture: n = (3, 1) gives q̄(A) = 0.75·0.5 + 0.25·0.9 = 0.6", () => {
    const w = mixtureWeights([ln(0.9)], [[ln(0.5), ln(0.9)]], [3, 1]);
    expect(w[0]).toBeCloseTo(0.9 / 0.6, 12);
  });

  it("a target in the pool has w ≤ N / n_k", () => {
    const rng = createRng(3);
    const pool = Array.from({ length: 50 }, () => [ln(rng.next() + 1e-3), ln(rng.next() + 1e-3), ln(rng.next() + 1e-3)]);
    for (const k of [0, 1, 2]) {
      const w = mixtureWeights(
        pool.map((p) => p[k]!),
        pool,
        [2, 1, 1],
      );
      const bound = 4 / [2, 1, 1][k]!;
      for (const x of w) expect(x).toBeLessThanOrEqual(bound + 1e-12);
    }
  });

  it("a program no pool policy can draw gets weight 0; shape errors say what is wrong", () => {
    expect(mixtureWeights([0], [[-Infinity, -Infinity]], [1, 1])).toEqual([0]);
    expect(() => mixtureWeights([0, 0], [[0]], [1])).toThrow(/2 target log-probabilities for 1 programs/);
    expect(() => mixtureWeights([0], [[0, 0]], [1])).toThrow(/2 pool log-probabilities, not 1/);
    expect(() => mixtureWeights([0], [[0]], [0])).toThrow(/no programs/);
  });
});

describe("weightedMean / effectiveSampleSize", () => {
  it.each([
    { f: [1, 0], w: [1, 1], mean: 0.5, ess: 2 },
    { f: [1, 0], w: [3, 1], mean: 0.75, ess: 16 / 10 },
    { f: [2, 4, 6], w: [0, 0, 2], mean: 6, ess: 1 },
    { f: [2], w: [0], mean: null, ess: 0 },
  ])("f $f, w $w", ({ f, w, mean, ess }) => {
    const m = weightedMean(f, w);
    if (mean === null) expect(m).toBeNull();
    else expect(m).toBeCloseTo(mean, 12);
    expect(effectiveSampleSize(w)).toBeCloseTo(ess, 12);
  });

  it("recovers E_π[f] from a two-policy pool (Monte Carlo, seeded)", () => {
    // Programs 0..3 with values f; q1 uniform, q2 skewed; target π = (0.1, 0.2, 0.3, 0.4) drew nothing itself.
    const f = [0, 1, 2, 3];
    const q1 = [0.25, 0.25, 0.25, 0.25];
    const q2 = [0.7, 0.1, 0.1, 0.1];
    const pi = [0.1, 0.2, 0.3, 0.4];
    const rng = createRng(11);
    const draw = (q: number[]) => {
      let u = rng.next();
      for (let i = 0; i < q.length; i++) if ((u -= q[i]!) < 0) return i;
      return q.length - 1;
    };
    const xs = [...Array.from({ length: 4000 }, () => draw(q1)), ...Array.from({ length: 4000 }, () => draw(q2))];
    const w = mixtureWeights(
      xs.map((x) => ln(pi[x]!)),
      xs.map((x) => [ln(q1[x]!), ln(q2[x]!)]),
      [4000, 4000],
    );
    expect(weightedMean(xs.map((x) => f[x]!), w)).toBeCloseTo(2.0, 1); // Σ π f = 0.2 + 0.6 + 1.2 = 2.0
  });
});

describe("weightedWinProbability", () => {
  it.each([
    // Equal weights: the Mann–Whitney share over ordered pairs i ≠ j. Values 1, 2, 3: 3 wins, 3 losses of 6 → ½.
    { what: "equal weights, symmetric", v: [1, 2, 3], wa: [1, 1, 1], wb: [1, 1, 1], p: 0.5 },
    // A on program 2 only (value 3), B on 0 and 1: A wins every pair.
    { what: "A on the best program", v: [1, 2, 3], wa: [0, 0, 1], wb: [1, 1, 0], p: 1 },
    // A = (0, 1, 1), B = (1, 1, 0): weighted pairs (1,0) win, (2,0) win, (2,1) win → 1.
    { what: "A above B", v: [1, 2, 3], wa: [0, 1, 1], wb: [1, 1, 0], p: 1 },
    // Ties count ½: two equal programs, A on one, B on the other.
    { what: "tie", v: [5, 5], wa: [1, 0], wb: [0, 1], p: 0.5 },
    // Two failures tie, a failure loses to a graded program. A = (1, 1, 0) on (fail, fail, 2), B = (0, 1, 1):
    // pairs (0,1) tie ½, (0,2) loss, (1,2) loss → ½ / 3.
    { what: "failures", v: [-Infinity, -Infinity, 2], wa: [1, 1, 0], wb: [0, 1, 1], p: 0.5 / 3 },
    // Weighted: A = (2, 1) on values (1, 2); B = (1, 1). Pairs (0,1): 2·1 loss, (1,0): 1·1 win → 1 / 3.
    { what: "weighted", v: [1, 2], wa: [2, 1], wb: [1, 1], p: 1 / 3 },
  ])("$what", ({ v, wa, wb, p }) => {
    expect(weightedWinProbability(v, wa, wb)).toBeCloseTo(p, 12);
  });

  it("equals the O(N²) definition on random pools with ties", () => {
    const rng = createRng(5);
    for (let rep = 0; rep < 20; rep++) {
      const n = 2 + rng.int(12);
      const v = Array.from({ length: n }, () => (rng.next() < 0.2 ? -Infinity : rng.int(5)));
      const wa = Array.from({ length: n }, () => rng.next());
      const wb = Array.from({ length: n }, () => rng.next());
      let num = 0;
      let den = 0;
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          if (i === j) continue;
          const c = v[i] === v[j] ? 0.5 : v[i]! > v[j]! ? 1 : 0;
          num += wa[i]! * wb[j]! * c;
          den += wa[i]! * wb[j]!;
        }
      expect(weightedWinProbability(v, wa, wb)).toBeCloseTo(num / den, 12);
    }
  });

  it("null when no pair of distinct programs has weight", () => {
    expect(weightedWinProbability([1, 2], [1, 0], [1, 0])).toBeNull();
  });
});
