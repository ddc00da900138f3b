import { describe, expect, it } from "vitest";
import { fitnessSoftmax } from "./fitness-selection.js";
import { minMax, rankNormalise, softmax } from "./softmax.js";
import { SELECTION_PRESETS, selectionWeights, threeFactorSelection, type SelectionCandidate } from "./three-factor-selection.js";

describe("softmax / normalisation", () => {
  it.each([
    { u: [0, 0], t: 1, p: [0.5, 0.5] },
    { u: [Math.log(3), 0], t: 1, p: [0.75, 0.25] },
    { u: [2 * Math.log(3), 0], t: 2, p: [0.75, 0.25] },
    { u: [1000, 1000, 1000, 1000], t: 1, p: [0.25, 0.25, 0.25, 0.25] },
  ])("softmax($u, T=$t)", ({ u, t, p }) => {
    softmax(u, t).forEach((x, i) => expect(x).toBeCloseTo(p[i]!, 12));
  });
  it("rejects a non-positive temperature naming the value", () => {
    expect(() => softmax([1], 0)).toThrow(/got 0/);
  });
  it.each([
    { v: [2, 4, 3], mm: [0, 1, 0.5], rk: [0, 1, 0.5] },
    { v: [5, 5], mm: [0.5, 0.5], rk: [0.5, 0.5] },
    { v: [1, 1, 3], mm: [0, 0, 1], rk: [0.25, 0.25, 1] },
  ])("minMax/rank of $v", ({ v, mm, rk }) => {
    expect(minMax(v)).toEqual(mm);
    expect(rankNormalise(v)).toEqual(rk);
  });
});

describe("three-factor selection", () => {
  it("presets: paper 1.0/0.6/0.3 and reference 1.0/0.4/0.25, T = 1; custom uses the fields", () => {
    expect(selectionWeights({ preset: "paper" })).toEqual({ lambdaScore: 1, lambdaGain: 0.6, lambdaNovelty: 0.3, temperature: 1 });
    expect(selectionWeights()).toEqual(SELECTION_PRESETS.reference);
    expect(selectionWeights({ preset: "custom", lambdaScore: 2, lambdaGain: 0, lambdaNovelty: 0, temperature: 0.5 }))
      .toMatchObject({ lambdaScore: 2, lambdaGain: 0, lambdaNovelty: 0, temperature: 0.5 });
  });

  it("two candidates by hand: s̃, Δ̃, ν, u and P", () => {
    // fitness 0.8 / 0.6; gains 0.1 (0.8 - 0.7) and 0.2 (0.6 - 0.4); families 3 and 0 cards.
    const c: SelectionCandidate[] = [
      { nodeId: "a", fitness: 0.8, bestParentFitness: 0.7, familyCount: 3 },
      { nodeId: "b", fitness: 0.6, bestParentFitness: 0.4, familyCount: 0 },
    ];
    const [a, b] = threeFactorSelection(c, { lambdaScore: 1, lambdaGain: 0.4, lambdaNovelty: 0.25, temperature: 1 });
    expect(a!.score).toBe(1); expect(b!.score).toBe(0);
    expect(a!.gain).toBeCloseTo(0.5, 12); expect(b!.gain).toBe(1);
    expect(a!.novelty).toBe(0.5); expect(b!.novelty).toBe(1);
    expect(a!.utility).toBeCloseTo(1 + 0.2 + 0.125, 12); // 1.325
    expect(b!.utility).toBeCloseTo(0 + 0.4 + 0.25, 12); // 0.65
    expect(a!.probability).toBeCloseTo(1 / (1 + Math.exp(0.65 - 1.325)), 12);
  });

  it("a lower-is-better metric enters as signed fitness (-score): the lowest error gets s̃ = 1", () => {
    const rmse = [0.3, 0.5, 0.4];
    const out = threeFactorSelection(rmse.map((r, i) => ({ nodeId: `n${i}`, fitness: -r, bestParentFitness: null, familyCount: 0 })));
    [1, 0, 0.5].forEach((x, i) => expect(out[i]!.score).toBeCloseTo(x, 12));
    expect(out.every((o) => o.gain === 0)).toBe(true);
  });

  // The spirit of the paper's worked example: a parent ranked 6th by score but 1st by gain rises to
  // utility rank 1 in a 10-parent pool. Numbers hand-checked (independently in Python):
  // score-only P = 10.149%, paper weights P = 17.195%, reference weights P = 14.613%.
  const fitness = [0.9, 0.88, 0.86, 0.85, 0.84, 0.83, 0.8, 0.78, 0.75, 0.7];
  const parent = [0.89, 0.87, 0.85, 0.845, 0.83, 0.73, 0.79, null, 0.74, null];
  const fam = [4, 4, 2, 4, 2, 1, 2, 4, 2, 1];
  const pool: SelectionCandidate[] = fitness.map((f, i) => ({ nodeId: `p${i + 1}`, fitness: f, bestParentFitness: parent[i]!, familyCount: fam[i]! }));
  const rankOf = (xs: number[], i: number) => [...xs.keys()].sort((a, b) => xs[b]! - xs[a]!).indexOf(i) + 1;

  it.each([
    { name: "score only", w: { lambdaScore: 1, lambdaGain: 0, lambdaNovelty: 0, temperature: 1 }, p6: 0.1014894201, u6: 0.65, rank: 6 },
    { name: "paper", w: SELECTION_PRESETS.paper, p6: 0.1719500929, u6: 1.462132, rank: 1 },
    { name: "reference", w: SELECTION_PRESETS.reference, p6: 0.1461252233, u6: 1.226777, rank: 1 },
  ])("worked example, $name: parent 6 has utility rank $rank", ({ w, p6, u6, rank }) => {
    const out = threeFactorSelection(pool, w);
    expect(out[5]!.gain).toBe(1); // largest gain: 0.83 - 0.73
    expect(out[5]!.utility).toBeCloseTo(u6, 6);
    expect(out[5]!.probability).toBeCloseTo(p6, 9);
    expect(rankOf(out.map((o) => o.utility), 5)).toBe(rank);
    expect(out.reduce((s, o) => s + o.probability, 0)).toBeCloseTo(1, 12);
  });

  it("AIRA-Evo fitness softmax equals the score-only three-factor probabilities", () => {
    const a = fitnessSoftmax(fitness);
    const b = threeFactorSelection(pool, { lambdaScore: 1, lambdaGain: 0, lambdaNovelty: 0, temperature: 1 }).map((o) => o.probability);
    a.forEach((x, i) => expect(x).toBeCloseTo(b[i]!, 12));
    expect(a[0]).toBeCloseTo(0.14402, 5);
  });
});
