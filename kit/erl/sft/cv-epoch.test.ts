import { describe, expect, it } from "vitest";
import { crossValidatedEpoch } from "./cv-epoch.js";

describe("crossValidatedEpoch: e* = argmax_e Σ_f n_f·LL_f(e) / Σ_f n_f, earliest on ties", () => {
  it.each([
    // One fold: its own curve.
    { curves: [{ n: 4, ll: [-3, -2, -2.5] }], epoch: 1, pooled: [-3, -2, -2.5] },
    // Two folds disagree (one peaks at 1, one at 2); weights 1 and 3: pooled = (1·LL_1 + 3·LL_2) / 4.
    // e0: (−3 − 12)/4 = −3.75; e1: (−1 − 9)/4 = −2.5; e2: (−2 − 6)/4 = −2. → 2
    { curves: [{ n: 1, ll: [-3, -1, -2] }, { n: 3, ll: [-4, -3, -2] }], epoch: 2, pooled: [-3.75, -2.5, -2] },
    // Equal weights flip it: e0 −3.5, e1 −2, e2 −2 → the earliest maximum, 1.
    { curves: [{ n: 2, ll: [-3, -1, -2] }, { n: 2, ll: [-4, -3, -2] }], epoch: 1, pooled: [-3.5, -2, -2] },
    // Nothing beats the starting params: 0.
    { curves: [{ n: 5, ll: [-1, -1.5, -1] }], epoch: 0, pooled: [-1, -1.5, -1] },
    // A fold without held-out examples weighs nothing.
    { curves: [{ n: 0, ll: [0, 0] }, { n: 2, ll: [-2, -1] }], epoch: 1, pooled: [-2, -1] },
  ])("$epoch from $curves.length folds", ({ curves, epoch, pooled }) => {
    const r = crossValidatedEpoch(curves);
    expect(r.epoch).toBe(epoch);
    r.pooled.forEach((x, i) => expect(x).toBeCloseTo(pooled[i]!, 12));
  });

  it("refuses folds of different lengths and no held-out examples", () => {
    expect(() => crossValidatedEpoch([{ n: 1, ll: [0, 1] }, { n: 1, ll: [0] }])).toThrow(/same epochs/);
    expect(() => crossValidatedEpoch([{ n: 0, ll: [0] }])).toThrow(/at least one fold/);
  });
});
