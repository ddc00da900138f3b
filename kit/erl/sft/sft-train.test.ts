import { describe, expect, it } from "vitest";
import type { GrammarChoice, GrammarParams } from "../../policy/grammar/index.js";
import { heldOutSplit } from "./held-out-split.js";
import { choicesLogLik, trainGrammarSft } from "./sft-train.js";

const ch = (value: string, options = ["a", "b"], name = "draft.tabular.model"): GrammarChoice => ({ name, value, options, logProb: 0 });
const uniform: GrammarParams = { version: 1, logits: {} };

describe("SFT of the grammar policy (L_evo, w = 1)", () => {
  // Hand-computed: uniform over {a, b}: log ½ = −0.693147. One step, lr 1, one example choosing a:
  // logit a += 1·(1 − ½) = ½, logit b += −½ → p(a) = σ(1) = 0.731059 → log p = −0.313262.
  it("one step on one example matches the hand computation", () => {
    expect(choicesLogLik(uniform, [ch("a")])).toBeCloseTo(Math.log(0.5), 12);
    const r = trainGrammarSft(uniform, [[ch("a")]], { epochs: 1, lr: 1, heldOut: 0 });
    expect(r.params.logits["draft.tabular.model"]).toEqual({ a: 0.5, b: -0.5 });
    expect(r.metrics.trainLogLikAfter).toBeCloseTo(-0.313262, 6);
    expect(r.metrics.heldOutLogLikBefore).toBeNull();
  });
  // Two examples a and b of the same decision: the mean gradient is 0 at uniform, nothing moves.
  it("opposite examples cancel at the uniform policy", () => {
    const r = trainGrammarSft(uniform, [[ch("a")], [ch("b")]], { epochs: 3, lr: 1, heldOut: 0 });
    expect(r.metrics.trainLogLikAfter).toBeCloseTo(Math.log(0.5), 12);
  });
  it("a value outside its options has likelihood 0 (−∞ log)", () => {
    expect(choicesLogLik(uniform, [ch("c")])).toBe(-Infinity);
  });
  it("held-out split: 5 examples, 20 % → 1 held out; training raises the train likelihood monotonically", () => {
    const ex = [[ch("a")], [ch("a")], [ch("a")], [ch("b")], [ch("a"), ch("x", ["x", "y", "z"], "draft.tabular.n_models")]];
    const r = trainGrammarSft(uniform, ex, { epochs: 5, lr: 1, heldOut: 0.2, seed: 2 });
    expect(r.metrics.heldOutExamples).toBe(1);
    expect(r.metrics.trainExamples).toBe(4);
    for (let i = 1; i < r.metrics.curve.length; i++) expect(r.metrics.curve[i]!).toBeGreaterThan(r.metrics.curve[i - 1]!);
    expect(r.metrics.trainLogLikAfter).toBeGreaterThan(r.metrics.trainLogLikBefore);
  });
  // Four examples choose a, one chooses b; one of five is held out. Held out an a, every step helps it (the last epoch
  // is kept); held out the b, every step hurts it (epoch 0, the starting params, is kept).
  it("early stopping keeps the epoch with the best held-out log-likelihood (0 = the starting params)", () => {
    const ex = [[ch("a")], [ch("a")], [ch("a")], [ch("a")], [ch("b")]];
    const kept = new Set<number>();
    for (let seed = 0; seed < 8; seed++) {
      const r = trainGrammarSft(uniform, ex, { epochs: 4, lr: 1, heldOut: 0.2, seed });
      const lls = [r.metrics.heldOutLogLikBefore!, ...r.metrics.heldOutCurve];
      expect(r.metrics.keptEpoch).toBe(lls.indexOf(Math.max(...lls)));
      expect(r.metrics.heldOutLogLikAfter).toBeCloseTo(Math.max(...lls), 12);
      if (r.metrics.keptEpoch === 0) expect(r.params).toEqual(uniform);
      kept.add(r.metrics.keptEpoch);
      const off = trainGrammarSft(uniform, ex, { epochs: 4, lr: 1, heldOut: 0.2, seed, earlyStopping: false });
      expect(off.metrics.keptEpoch).toBe(4);
    }
    expect([...kept].sort()).toEqual([0, 4]);
  });
});

describe("SFT's split by task", () => {
  // Tasks t1 (a, a), t2 (a), t3 (b); a third of 3 tasks = 1 held out. Held out t1: the training side t2 + t3 cancels,
  // nothing moves (epoch 0 kept). Held out t2: training on t1 + t3 favours a, which helps it (the last epoch kept).
  // Held out t3: training favours a, which hurts b (epoch 0 kept).
  it("holds out whole tasks, and early stopping reads the unseen task", () => {
    const ex = [[ch("a")], [ch("b")], [ch("a")], [ch("a")]];
    const groups = ["t1", "t3", "t2", "t1"];
    const expected = { t1: { held: 2, kept: 0 }, t2: { held: 1, kept: 3 }, t3: { held: 1, kept: 0 } };
    const seen = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const r = trainGrammarSft(uniform, ex, { epochs: 3, lr: 1, heldOut: 1 / 3, seed, splitBy: "task" }, groups);
      const task = groups[heldOutSplit(4, { share: 1 / 3, seed, by: "task" }, groups).held[0]!] as keyof typeof expected;
      expect(r.metrics).toMatchObject({ heldOutExamples: expected[task].held, trainExamples: 4 - expected[task].held });
      expect(r.metrics.keptEpoch).toBe(expected[task].kept);
      seen.add(task);
    }
    expect([...seen].sort()).toEqual(["t1", "t2", "t3"]);
  });
  it("without task ids it is an error that names the setting", () => {
    expect(() => trainGrammarSft(uniform, [[ch("a")], [ch("b")]], { splitBy: "task" })).toThrow(/splitBy "task"/);
  });
});

describe("SFT's cross-validated early stopping (folds ≥ 2)", () => {
  it("reads every task once: where one split kept epoch 0 or 3 by the task it held out, 3 folds keep 0", () => {
    // The fixture above, 3 folds by task (one task each, whatever the seed). Epoch 1, by hand (2 options, lr 1):
    // fold t1 trains on a, b: nothing moves, LL = −ln 2; fold t2 trains on a, a, b: z_a − z_b = 1/3, LL(a) =
    // ln σ(1/3) = −0.540306; fold t3 trains on a, a, a: z_a − z_b = 1, LL(b) = ln σ(−1) = −1.313262.
    // Pooled (weights 2, 1, 1): e0 −0.693147, e1 −0.809965: training only hurts the unseen tasks on average.
    const ex = [[ch("a")], [ch("b")], [ch("a")], [ch("a")]];
    const groups = ["t1", "t3", "t2", "t1"];
    for (const seed of [0, 1, 2]) {
      const r = trainGrammarSft(uniform, ex, { epochs: 3, lr: 1, folds: 3, seed, splitBy: "task" }, groups);
      expect(r.metrics.keptEpoch).toBe(0);
      expect(r.metrics.heldOutLogLikBefore).toBeCloseTo(-Math.LN2, 6);
      expect(r.metrics.heldOutCurve[0]).toBeCloseTo(-0.809965, 5);
      expect(r.metrics.heldOutCurve).toHaveLength(3);
      expect(r.metrics).toMatchObject({ heldOutExamples: 4, trainExamples: 4, curve: [] });
      expect(r.params).toEqual(uniform);
    }
  });

  it("keeps the best pooled epoch and retrains on all examples for that many epochs", () => {
    const ex = [[ch("a")], [ch("a")], [ch("a")], [ch("b")], [ch("a")], [ch("a")]];
    const groups = ["t1", "t2", "t3", "t4", "t5", "t6"];
    const r = trainGrammarSft(uniform, ex, { epochs: 6, lr: 1, folds: 3, seed: 4, splitBy: "task" }, groups);
    const lls = [r.metrics.heldOutLogLikBefore!, ...r.metrics.heldOutCurve];
    expect(r.metrics.keptEpoch).toBe(lls.indexOf(Math.max(...lls)));
    expect(r.metrics.keptEpoch).toBeGreaterThan(0); // five a's and one b: a little training helps the unseen tasks
    expect(r.metrics.heldOutLogLikAfter).toBe(Math.max(...lls));
    const refit = trainGrammarSft(uniform, ex, { epochs: r.metrics.keptEpoch, lr: 1, heldOut: 0 });
    expect(r.params).toEqual(refit.params);
    expect(r.metrics.curve).toEqual(refit.metrics.curve);
  });

  it("one task cannot be held out: every epoch is trained, as with one split", () => {
    const ex = [[ch("a")], [ch("a")]];
    const r = trainGrammarSft(uniform, ex, { epochs: 4, lr: 1, folds: 5, splitBy: "task" }, ["t", "t"]);
    expect(r.metrics).toMatchObject({ keptEpoch: 4, heldOutExamples: 0, trainExamples: 2 });
    expect(r.params).toEqual(trainGrammarSft(uniform, ex, { epochs: 4, lr: 1, heldOut: 0 }).params);
  });

  it("folds without early stopping is a config error that names both settings", () => {
    expect(() => trainGrammarSft(uniform, [[ch("a")], [ch("b")]], { folds: 2, earlyStopping: false })).toThrow(/earlyStopping/);
  });
});
