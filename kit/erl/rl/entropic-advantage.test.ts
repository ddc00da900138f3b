import { describe, expect, it } from "vitest";
import { BETA_CAP, entropicAdvantage, grpoAdvantage, klToUniform } from "./entropic-advantage.js";

describe("entropicAdvantage", () => {
  // β and A computed independently in Python (scipy brentq on KL(q_β‖U) = log 2).
  it.each([
    { r: [1, 0, 0, 0], beta: 2.5532449091856577, a: [11.848729169980764, -0.797962508062719, -0.797962508062719, -0.797962508062719] },
    { r: [0.9, 0.6, 0.3, 0.0], beta: 4.819530746121919, a: [8.865417943032519, -0.33870055779900665, -0.8666980593328311, -0.9696330790761069] },
    { r: [1.0, 0.8, 0.8, 0.2, 0.0], beta: 6.560344085515868, a: [6.336799872956013, -0.15587376604108116, -0.15587376604108116, -0.9863460240781026, -0.9963326450655728] },
  ])("rewards $r", ({ r, beta, a }) => {
    const out = entropicAdvantage(r);
    expect(out.beta).toBeCloseTo(beta, 9);
    out.advantages.forEach((x, i) => expect(x).toBeCloseTo(a[i]!, 8));
    expect(klToUniform(r.map((x) => x - Math.max(...r)), out.beta)).toBeCloseTo(Math.log(2), 12);
  });

  it("[1, 0, 0, 0] by hand: w_1 = e^β / mean(e^-β·3)·… = e^β, so A_1 = e^β − 1", () => {
    const { beta, advantages } = entropicAdvantage([1, 0, 0, 0]);
    expect(advantages[0]).toBeCloseTo(Math.exp(beta) - 1, 9);
  });

  it.each([
    // three maxima of four: KL → log(4/3) < log 2; w = 1/(2/3 + 1e-12) for the maxima.
    { r: [0.7, 0.7, 0.7, 0.1], a0: 1 / (2 / 3 + 1e-12) - 1, aLast: -1 },
    // two maxima of three: KL → log 3 − log 2 < log 2 → capped; w = 1/(½ + 1e-12) for the maxima.
    { r: [1, 1, 0], a0: 1 / (0.5 + 1e-12) - 1, aLast: -1 },
  ])("doubling cap: $r → β = 1e6", ({ r, a0, aLast }) => {
    const out = entropicAdvantage(r);
    expect(out.beta).toBe(BETA_CAP);
    expect(out.advantages[0]! / a0).toBeCloseTo(1, 9);
    expect(out.advantages[r.length - 1]).toBeCloseTo(aLast, 12);
  });

  it("K = 2: KL = log 2 − H(q) reaches log 2 only when H(q) underflows, so β is large but finite", () => {
    const out = entropicAdvantage([1, 0]);
    expect(out.beta).toBeGreaterThan(30);
    expect(out.beta).toBeLessThan(BETA_CAP);
    expect(out.advantages[0]).toBeGreaterThan(1e11); // 1/(e^-β + 1e-12) − 1, near the 1e12 ceiling
    expect(out.advantages[1]).toBeCloseTo(-1, 12);
  });

  it.each([{ r: [] }, { r: [0.4] }, { r: [0.3, 0.3, 0.3] }, { r: [0, 0] }])("no signal: $r → β = 0, all A = 0", ({ r }) => {
    expect(entropicAdvantage(r)).toEqual({ beta: 0, advantages: r.map(() => 0) });
  });
});

describe("grpoAdvantage", () => {
  it.each([
    { r: [1, 0], a: [0.5 / (Math.SQRT1_2 + 1e-6), -0.5 / (Math.SQRT1_2 + 1e-6)] },
    // mean 0.25, sample sd sqrt(0.75/3) = 0.5
    { r: [1, 0, 0, 0], a: [0.75 / 0.500001, -0.25 / 0.500001, -0.25 / 0.500001, -0.25 / 0.500001] },
    { r: [0.5, 0.5], a: [0, 0] },
    { r: [0.5], a: [0] },
  ])("$r", ({ r, a }) => {
    grpoAdvantage(r).forEach((x, i) => expect(x).toBeCloseTo(a[i]!, 12));
  });
});
