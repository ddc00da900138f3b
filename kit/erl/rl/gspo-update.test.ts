import { describe, expect, it } from "vitest";
import { createGrammarPolicy, defaultGrammarParams, logProb, type GrammarParams } from "../../policy/grammar/index.js";
import { metaTask, NO_PARENTS } from "../../policy/grammar/test-helpers/tasks.js";
import { createRng } from "../../util/rng.js";
import { gspoUpdate, sequenceLogProb } from "./gspo-update.js";

const task = metaTask({ modality: "tabular" });
const draft = (p: GrammarParams, seed: number) => createGrammarPolicy(p).propose(task, "draft", NO_PARENTS, createRng(seed));

describe("GSPO update on the grammar policy", () => {
  it("sequenceLogProb equals logProb's replay of the program", async () => {
    const p = defaultGrammarParams();
    const out = await draft(p, 3);
    expect(sequenceLogProb(p, out.choices)).toBeCloseTo(logProb(p, out.code, task, "draft", NO_PARENTS), 12);
    expect(sequenceLogProb(p, out.choices)).toBeCloseTo(out.logProb, 12);
  });

  it("raises the log-probability of positive-advantage programs and lowers negative ones", async () => {
    const p = defaultGrammarParams();
    const [good, bad] = [await draft(p, 1), await draft(p, 2)];
    expect(good.code).not.toBe(bad.code);
    const { params, stats } = gspoUpdate(p, [
      { choices: good.choices, oldLogProb: good.logProb, advantage: 2 },
      { choices: bad.choices, oldLogProb: bad.logProb, advantage: -1 },
    ], { lr: 1, epochs: 3 });
    expect(logProb(params, good.code, task, "draft", NO_PARENTS)).toBeGreaterThan(good.logProb);
    expect(logProb(params, bad.code, task, "draft", NO_PARENTS)).toBeLessThan(bad.logProb);
    expect(stats.meanRatio[0]).toBeCloseTo(1, 12); // θ = θ_old on the first epoch
    expect(stats.objective[2]!).toBeGreaterThan(stats.objective[0]!);
  });

  it("one decision by hand: weight A·s/|y|/N, logit[o] += lr·w·(1[o = v] − p(o))", () => {
    const p: GrammarParams = { version: 1, logits: {} };
    const choice = { name: "draft.tabular.model", value: "a", options: ["a", "b"], logProb: Math.log(0.5) };
    const out = gspoUpdate(p, [{ choices: [choice], oldLogProb: Math.log(0.5), advantage: 1 }], { lr: 2 });
    // s = 1, N = 1, |y| = 1 → w = 1; Δa = 2·(1 − 0.5) = 1, Δb = 2·(0 − 0.5) = −1
    expect(out.params.logits["draft.tabular.model"]).toEqual({ a: 1, b: -1 });
  });

  it("clipping: a positive-advantage sample whose ratio already exceeds 1 + ε gets no gradient", () => {
    const choice = { name: "d", value: "a", options: ["a", "b"], logProb: Math.log(0.5) };
    const moved: GrammarParams = { version: 1, logits: { d: { a: 2 } } }; // p(a) = 0.881 → s = 1.76
    const out = gspoUpdate(moved, [{ choices: [choice], oldLogProb: Math.log(0.5), advantage: 1 }], { epsilon: 0.2 });
    expect(out.stats.clippedShare).toEqual([1]);
    expect(out.params.logits).toEqual(moved.logits);
    // the same sample with a negative advantage is not clipped (s > 1 − ε): it is pushed down
    const neg = gspoUpdate(moved, [{ choices: [choice], oldLogProb: Math.log(0.5), advantage: -1 }]);
    expect(neg.params.logits.d!.a!).toBeLessThan(2);
  });

  it("zero advantages or no decisions: params unchanged", () => {
    const p = defaultGrammarParams();
    expect(gspoUpdate(p, [{ choices: [], oldLogProb: 0, advantage: 1 }]).params).toBe(p);
    expect(() => gspoUpdate(p, [], { lr: 0 })).toThrow();
  });
});
