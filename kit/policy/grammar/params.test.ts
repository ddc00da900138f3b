import { describe, expect, it } from "vitest";
import { gradientStep } from "./gradient-step.js";
import { choiceLogProb, genericDecision, logSoftmax, paramsFromJson, paramsToJson, GrammarParamsError, type GrammarChoice, type GrammarParams } from "./params.js";
import { defaultGrammarParams } from "./default-params.js";

const P: GrammarParams = { version: 1, logits: { d: { a: Math.log(3), b: 0 } } };

describe("grammar params", () => {
  it.each([
    // options, expected probabilities (hand-computed from logits a=ln 3, b=0, c missing=0)
    [["a", "b"], [0.75, 0.25]],
    [["a", "b", "c"], [0.6, 0.2, 0.2]],
    [["b", "c"], [0.5, 0.5]],
    [["x"], [1]],
  ] as const)("logSoftmax over %j", (options, probs) => {
    const lp = logSoftmax(P, "d", options);
    lp.forEach((v, i) => expect(Math.exp(v)).toBeCloseTo(probs[i]!, 12));
  });

  it("gradientStep: logit[o] += lr·w·(1[o=v] − p(o)), hand-computed", () => {
    const uniform: GrammarParams = { version: 1, logits: {} };
    const choice = { name: "k", value: "a", logProb: Math.log(0.5), options: ["a", "b"] };
    const next = gradientStep(uniform, [{ choices: [choice], weight: 2 }], 0.5);
    expect(next.logits.k!.a).toBeCloseTo(0.5, 12); // 0.5·2·(1−0.5)
    expect(next.logits.k!.b).toBeCloseTo(-0.5, 12);
    expect(uniform.logits).toEqual({}); // input untouched
    // Negative weight pushes the other way; two samples add up.
    const both = gradientStep(P, [{ choices: [{ ...choice, name: "d" }], weight: 1 }, { choices: [{ ...choice, name: "d", value: "b" }], weight: -1 }], 1);
    // p(a)=0.75: +1·(1−0.75) − 1·(0−0.75) = 1.0; b: +1·(0−0.25) − 1·(1−0.25) = −1.0
    expect(both.logits.d!.a).toBeCloseTo(Math.log(3) + 1, 12);
    expect(both.logits.d!.b).toBeCloseTo(-1, 12);
  });

  it("gradientStep raises the log-probability of positively weighted choices", () => {
    const c = { name: "d", value: "b", logProb: 0, options: ["a", "b", "c"] };
    const before = logSoftmax(P, "d", c.options)[1]!;
    const after = logSoftmax(gradientStep(P, [{ choices: [c], weight: 1 }], 0.1), "d", c.options)[1]!;
    expect(after).toBeGreaterThan(before);
  });

  it("gradientStep accepts plain Choices without options (known logits + value)", () => {
    const next = gradientStep(P, [{ choices: [{ name: "d", value: "b", logProb: 0 }], weight: 1 }], 1);
    expect(next.logits.d!.b).toBeCloseTo(0.75, 12);
  });

  it("JSON round trip; bad JSON names the problem", () => {
    const p = defaultGrammarParams();
    expect(paramsFromJson(paramsToJson(p))).toEqual(p);
    expect(() => paramsFromJson('{"version":4,"logits":{}}')).toThrow(GrammarParamsError);
    expect(() => paramsFromJson('{"version":1,"logits":{"x":{"a":"high"}}}')).toThrow(/x\[a\]/);
  });
});

describe("the grammar policy's name identifies its checkpoint", async () => {
  const { createGrammarPolicy } = await import("./grammar-policy.js");
  const { defaultGrammarParams } = await import("./default-params.js");
  it("default params → grammar; trained params → grammar@<hash>, stable per params", () => {
    expect(createGrammarPolicy().name).toBe("grammar");
    const trained = { version: 1 as const, logits: { ...defaultGrammarParams().logits, "draft.text.model": { linear: 2, svm: 0 } } };
    const name = createGrammarPolicy(trained).name;
    expect(name).toMatch(/^grammar@[0-9a-f]{8}$/);
    expect(createGrammarPolicy(JSON.parse(JSON.stringify(trained))).name).toBe(name);
  });
});

/** Every logit of the params as a flat (path → value) map, for finite differences. */
function flat(p: GrammarParams): Map<string, number> {
  const out = new Map<string, number>();
  for (const [d, row] of Object.entries(p.logits)) for (const [o, v] of Object.entries(row)) out.set(`b|${d}|${o}`, v);
  for (const [d, byF] of Object.entries(p.conditioned ?? {})) for (const [f, row] of Object.entries(byF)) for (const [o, v] of Object.entries(row)) out.set(`c|${d}|${f}|${o}`, v);
  return out;
}
function withValue(p: GrammarParams, key: string, v: number): GrammarParams {
  const parts = key.split("|");
  const q = paramsFromJson(paramsToJson(p)) as { logits: Record<string, Record<string, number>>; conditioned?: Record<string, Record<string, Record<string, number>>> };
  if (parts[0] === "b") q.logits[parts[1]!]![parts[2]!] = v;
  else q.conditioned![parts[1]!]![parts[2]!]![parts[3]!] = v;
  return q as unknown as GrammarParams;
}

describe("grammar params version 2: feature-conditioned rows", () => {
  const V2: GrammarParams = {
    version: 2,
    logits: { "draft.tabular.model": { a: Math.log(3) } },
    conditioned: { "draft.model": { "rows:<500": { b: Math.log(3) }, any: { c: Math.log(2) } } },
  };

  it.each([
    // features, options → probabilities, hand-computed: z = base + Σ conditioned rows of active features
    [[], ["a", "b", "c"], [3 / 5, 1 / 5, 1 / 5]], // z = (ln3, 0, 0)
    [["rows:<500"], ["a", "b", "c"], [3 / 7, 3 / 7, 1 / 7]], // z = (ln3, ln3, 0)
    [["rows:<500", "any"], ["a", "b", "c"], [3 / 8, 3 / 8, 2 / 8]], // z = (ln3, ln3, ln2)
    [["rows:>10k", "any"], ["a", "b"], [3 / 4, 1 / 4]], // unseen feature: 0; c not offered
  ] as const)("z(o | d, F) = logits[d][o] + Σ_f conditioned[generic d][f][o]: F=%j", (features, options, probs) => {
    const lp = logSoftmax(V2, "draft.tabular.model", options, features);
    lp.forEach((v, i) => expect(Math.exp(v)).toBeCloseTo(probs[i]!, 12));
    // the conditioned rows are shared across modalities: another modality sees them without its base row
    expect(Math.exp(logSoftmax(V2, "draft.text.model", ["a", "b"], features)[0]!)).toBeCloseTo(features.length && features[0] === "rows:<500" ? 1 / 4 : 1 / 2, 12);
  });

  it("genericDecision drops the modality", () => {
    expect(genericDecision("improve.tabular.edit.sklearn")).toBe("improve.edit.sklearn");
    expect(genericDecision("d")).toBe("d");
  });

  it("empty params are uniform whatever the features (default behaviour unchanged)", () => {
    const lp = logSoftmax({ version: 1, logits: {} }, "draft.tabular.model", ["a", "b", "c", "d"], ["any", "rows:<500"]);
    lp.forEach((v) => expect(Math.exp(v)).toBeCloseTo(0.25, 12));
  });

  it("gradientStep is the exact gradient of Σ w·log p (finite differences, base and conditioned rows)", () => {
    const c1: GrammarChoice = { name: "draft.tabular.model", value: "b", logProb: 0, options: ["a", "b", "c"], features: ["rows:<500", "any"] };
    const c2: GrammarChoice = { name: "draft.text.model", value: "c", logProb: 0, options: ["b", "c"], features: ["any", "kind:text"] };
    const c3: GrammarChoice = { name: "draft.tabular.model", value: "a", logProb: 0, options: ["a", "c"] }; // no features: base row only
    const samples = [{ choices: [c1, c2], weight: 1.5 }, { choices: [c3, c1], weight: -0.7 }];
    const J = (p: GrammarParams) => samples.reduce((s, x) => s + x.weight * x.choices.reduce((t, c) => t + choiceLogProb(p, c), 0), 0);
    const lr = 1e-3;
    const stepped = gradientStep(V2, samples, lr, { conditioned: true });
    expect(stepped.version).toBe(2);
    const before = flat(V2);
    const after = flat(stepped);
    // every parameter that enters J, including ones absent (0) before the step
    const keys = new Set([...before.keys(), ...after.keys()]);
    expect(keys.has("c|draft.model|kind:text|c")).toBe(true);
    let zeroGrad = 0;
    for (const k of keys) {
      const analytic = ((after.get(k) ?? 0) - (before.get(k) ?? 0)) / lr;
      // central difference of J at V2 (absent entries are 0), one parameter at a time
      const h = 1e-6;
      const at = withValue(zeroExtended(V2, keys), k, (before.get(k) ?? 0) + h);
      const at2 = withValue(zeroExtended(V2, keys), k, (before.get(k) ?? 0) - h);
      const fd = (J(at) - J(at2)) / (2 * h);
      expect(analytic).toBeCloseTo(fd, 6);
      if (Math.abs(fd) < 1e-12) zeroGrad++;
    }
    expect(zeroGrad).toBeLessThan(keys.size);
  });

  it("gradientStep by default keeps version 1 params version 1; conditioned: true learns the feature rows", () => {
    const c: GrammarChoice = { name: "draft.tabular.model", value: "b", logProb: 0, options: ["a", "b"], features: ["any"] };
    const v1 = gradientStep(P, [{ choices: [c], weight: 1 }], 1);
    expect(v1.version).toBe(1);
    expect(v1.conditioned).toBeUndefined();
    expect(gradientStep(P, [{ choices: [{ ...c, features: [] }], weight: 1 }], 1, { conditioned: true }).version).toBe(1);
    const v2 = gradientStep(P, [{ choices: [c], weight: 1 }], 1, { conditioned: true });
    expect(v2.conditioned!["draft.model"]!.any!.b).toBeCloseTo(0.5, 12);
  });

  it("JSON: version 2 round-trips; version 1 loads as before; version 1 with conditioned rows is refused", () => {
    expect(paramsFromJson(paramsToJson(V2))).toEqual(V2);
    expect(paramsFromJson('{"version":1,"logits":{"d":{"a":1}}}')).toEqual({ version: 1, logits: { d: { a: 1 } } });
    expect(() => paramsFromJson('{"version":1,"logits":{},"conditioned":{}}')).toThrow(/version 1/);
    expect(() => paramsFromJson('{"version":2,"logits":{},"conditioned":{"d":{"any":{"a":"x"}}}}')).toThrow(/d\|any\[a\]/);
  });
});

/** V2 with every key of `keys` present (0 where absent), so a single entry can be perturbed. */
function zeroExtended(p: GrammarParams, keys: Set<string>): GrammarParams {
  let q = paramsFromJson(paramsToJson(p)) as { version: 1 | 2; logits: Record<string, Record<string, number>>; conditioned?: Record<string, Record<string, Record<string, number>>> };
  for (const k of keys) {
    const parts = k.split("|");
    if (parts[0] === "b") ((q.logits[parts[1]!] ??= {})[parts[2]!] ??= 0);
    else (((q.conditioned ??= {})[parts[1]!] ??= {})[parts[2]!] ??= {})[parts[3]!] ??= 0;
  }
  q = { ...q, version: 2 };
  return q as unknown as GrammarParams;
}
