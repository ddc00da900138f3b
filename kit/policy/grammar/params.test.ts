import { describe, expect, it } from "vitest";
import { gradientStep, logSoftmax, paramsFromJson, paramsToJson, GrammarParamsError, type GrammarParams } from "./params.js";
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
    expect(() => paramsFromJson('{"version":2,"logits":{}}')).toThrow(GrammarParamsError);
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
