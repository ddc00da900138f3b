import { describe, expect, it } from "vitest";
import { Chooser, contextEvidence, type GrammarChoice, type GrammarParams } from "../../policy/grammar/index.js";
import { createRng } from "../../util/index.js";
import { diffDecisions, policyKl, PolicyKlConfig, summariseShifts } from "./decision-diff.js";

const U: GrammarParams = { version: 1, logits: {} };
const A: GrammarParams = { version: 2, logits: { "draft.tabular.model": { a: Math.log(3) } }, conditioned: { "draft.model": { "rows:<500": { b: Math.log(3) } } } };
const probe = (name: string, options: string[], features: string[] = []): GrammarChoice => ({ name, value: options[0]!, logProb: 0, options, features });

describe("diffDecisions", () => {
  it("tv and the top option, hand-computed; unchanged and one-option situations left out; probes counted", () => {
    const shifts = diffDecisions(U, A, [
      probe("draft.tabular.model", ["a", "b"]), probe("draft.tabular.model", ["a", "b"]), // uniform → (3/4, 1/4): tv 0.25
      probe("draft.tabular.model", ["a", "b", "c"], ["rows:<500"]), // (1/3,1/3,1/3) → (3/7,3/7,1/7): tv = 4/21
      probe("draft.text.model", ["a", "b"]), // unchanged
      probe("draft.tabular.n_models", ["1"]), // one option
    ]);
    expect(shifts).toHaveLength(2);
    expect(shifts[0]).toMatchObject({ decision: "draft.tabular.model", features: "", topOption: "a", count: 2 });
    expect(shifts[0]!.tv).toBeCloseTo(0.25, 12);
    expect(shifts[0]!.topDelta).toBeCloseTo(0.25, 12);
    expect(shifts[1]!.tv).toBeCloseTo(4 / 21, 12);
    expect(shifts[1]!.features).toBe("rows:<500");
    expect(shifts[1]!.topOption).toBe("c"); // −4/21 is the largest move
    const merged = summariseShifts(shifts);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.meanTv).toBeCloseTo((2 * 0.25 + 4 / 21) / 3, 12);
    expect(merged[0]!.maxTv).toBeCloseTo(0.25, 12);
    expect(diffDecisions(A, A, [probe("draft.tabular.model", ["a", "b"])])).toEqual([]);
  });
});

// Hand-computed: U2 = (½, ½) and (¾, ¼) give KL = ½ ln(½/¾) + ½ ln(½/¼) = ½ ln(4/3) = 0.143841, TV = ¼;
// (0.8, 0.2) and (½, ½) give KL = 0.8 ln 1.6 + 0.2 ln 0.4 = 0.192745, TV = 0.3.
const B1: GrammarParams = { version: 1, logits: { "draft.tabular.model": { a: Math.log(3) } } };
const A1: GrammarParams = { version: 1, logits: { "improve.tabular.edit": { x: Math.log(4) } } };
const KL_34 = 0.5 * Math.log(4 / 3);
const KL_82 = 0.8 * Math.log(1.6) + 0.2 * Math.log(0.4);

const budget = { remainingSteps: 1, remainingTimeS: 60, perRunTimeLimitS: 60 };

describe("policyKl", () => {
  it("the config: defaults, and a bad value refused", () => {
    expect(PolicyKlConfig.parse({})).toEqual({ minKl: 1e-12 });
    expect(() => PolicyKlConfig.parse({ minKl: -1 })).toThrow();
    expect(() => PolicyKlConfig.parse({ minkl: 0 })).toThrow();
  });

  it("two 2-option decisions with known logits: per-situation KL, TV, top mover; count-weighted mean", () => {
    expect(KL_34).toBeCloseTo(0.143841, 6);
    expect(KL_82).toBeCloseTo(0.192745, 6);
    const a = A1; // A: improve edit (0.8, 0.2), draft model uniform
    const b = B1; // B: improve edit uniform, draft model (¾, ¼)
    const r = policyKl(a, b, [
      probe("draft.tabular.model", ["a", "b"]),
      probe("draft.tabular.model", ["a", "b"]),
      probe("improve.tabular.edit", ["x", "y"]),
      probe("draft.tabular.n_models", ["1"]), // one option: not a choice, left out
    ]);
    expect(r.probes).toBe(3);
    expect(r.meanKl).toBeCloseTo((2 * KL_34 + KL_82) / 3, 12); // 0.160142
    expect(r.meanKl).toBeCloseTo(0.160142, 6);
    expect(r.meanTv).toBeCloseTo((2 * 0.25 + 0.3) / 3, 12);
    const [first, second] = r.situations;
    // draft.model: 2 × 0.143841 = 0.287682 of 0.480427 → share 0.598806; improve.edit: 0.401194
    expect(first).toMatchObject({ decision: "draft.tabular.model", count: 2, topOption: "a" });
    expect(first!.kl).toBeCloseTo(KL_34, 12);
    expect(first!.tv).toBeCloseTo(0.25, 12);
    expect([first!.topA, first!.topB]).toEqual([0.5, 0.75].map((v) => expect.closeTo(v, 12)));
    expect(first!.share).toBeCloseTo((2 * KL_34) / (2 * KL_34 + KL_82), 12);
    expect(second).toMatchObject({ decision: "improve.tabular.edit", count: 1, topOption: "x" });
    expect(second!.kl).toBeCloseTo(KL_82, 12);
    expect(second!.pA).toEqual([0.8, 0.2].map((v) => expect.closeTo(v, 12)));
    expect(second!.pB).toEqual([0.5, 0.5].map((v) => expect.closeTo(v, 12)));
    // The direction matters: KL(B ‖ A) on draft.model = ¾ ln(3/2) + ¼ ln(1/2) = 0.130812 ≠ 0.143841.
    const back = policyKl(b, a, [probe("draft.tabular.model", ["a", "b"])]);
    expect(back.meanKl).toBeCloseTo(0.75 * Math.log(1.5) + 0.25 * Math.log(0.5), 12);
    expect(back.meanKl).toBeCloseTo(0.130812, 6);
  });

  it("identical params: KL 0 everywhere, share 0; no probes: mean 0; minKl drops rows but not the mean", () => {
    const same = policyKl(A, A, [probe("draft.tabular.model", ["a", "b"])]);
    expect(same).toEqual({ meanKl: 0, meanTv: 0, probes: 1, situations: [] });
    const listed = policyKl(A, A, [probe("draft.tabular.model", ["a", "b"])], { minKl: 0 });
    expect(listed.situations[0]).toMatchObject({ kl: 0, share: 0, count: 1 });
    expect(policyKl(A, U, [])).toEqual({ meanKl: 0, meanTv: 0, probes: 0, situations: [] });
    const r = policyKl(A1, B1, [probe("draft.tabular.model", ["a", "b"]), probe("improve.tabular.edit", ["x", "y"])], {
      minKl: 0.15,
    });
    expect(r.situations.map((s) => s.decision)).toEqual(["improve.tabular.edit"]);
    expect(r.meanKl).toBeCloseTo((KL_34 + KL_82) / 2, 12);
    expect(() => policyKl(A1, B1, [], { minKl: -1 } as never)).toThrow();
  });

  it("context labels enter as the chooser's: version 3 reads them, version 1 does not; labels split situations", () => {
    // A (v3): weight ln 2 on "untried" → z = (ln 2, 0, 0) → (½, ¼, ¼); uniform v3: (⅓, ⅓, ⅓).
    // KL = ½ ln(3/2) + 2 · ¼ ln(3/4) = 0.058892; top mover a: 0.5 → 0.333.
    const v3: GrammarParams = { version: 3, logits: {}, optionWeights: { "draft.model": { untried: Math.log(2) } } };
    const uniform3: GrammarParams = { version: 3, logits: {}, optionWeights: {} };
    const withLabels = (of: Record<string, string[]>): GrammarChoice => ({
      ...probe("draft.tabular.model", ["a", "b", "c"], ["any"]),
      optionFeatures: of,
    });
    const r = policyKl(v3, uniform3, [withLabels({ a: ["untried"] }), withLabels({ b: ["untried"] })]);
    expect(r.situations).toHaveLength(2);
    const want = 0.5 * Math.log(1.5) + 0.5 * Math.log(0.75);
    expect(want).toBeCloseTo(0.058892, 6);
    for (const s of r.situations) expect(s.kl).toBeCloseTo(want, 12);
    expect(r.situations.map((s) => s.topOption).sort()).toEqual(["a", "b"]);
    const a = r.situations.find((s) => s.topOption === "a")!;
    expect([a.topA, a.topB]).toEqual([0.5, 1 / 3].map((v) => expect.closeTo(v, 12)));
    expect(a.optionFeatures).toEqual({ a: ["untried"] });
    // A version-1 set ignores labels (its chooser computes none): uniform v1 vs uniform v3 is KL 0.
    expect(policyKl(U, uniform3, [withLabels({ a: ["untried"] })]).meanKl).toBe(0);
    // The same probe scored by the chooser: p_A of the drawn option is exp(its recorded logProb).
    const ch = Chooser.sampling(v3, "draft.tabular", createRng(3), ["any"], contextEvidence({ parents: [], budget }, true));
    const value = ch.pick("model", ["a", "b", "c"], { a: ["untried"] });
    const recorded = ch.choices[0]!;
    expect(recorded.optionFeatures).toEqual({ a: ["untried"] });
    const s = policyKl(v3, uniform3, [recorded]).situations[0]!;
    expect(Math.log(s.pA[s.options.indexOf(value)]!)).toBeCloseTo(recorded.logProb, 12);
  });
});
