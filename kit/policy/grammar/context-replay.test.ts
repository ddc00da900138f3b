import { describe, expect, it } from "vitest";
import { createRng } from "../../util/rng.js";
import type { Operator, OperatorContext } from "../types.js";
import { defaultGrammarParams } from "./default-params.js";
import { gradientStep } from "./gradient-step.js";
import { createGrammarPolicy, logProb, replayChoices } from "./grammar-policy.js";
import { choiceLogProb, paramsFromJson, paramsToJson, type GrammarChoice, type GrammarParams } from "./params.js";
import { BUDGET, metaTask, NO_PARENTS, shown, view } from "./test-helpers/tasks.js";

const tab = metaTask({ modality: "tabular", nTrain: 300 });
const base = defaultGrammarParams().logits;
/** Hand weights on every label an operator emits (not the defaults: this tests the mechanism). */
const hand: GrammarParams = {
  version: 3,
  logits: base,
  optionWeights: {
    "draft.model": { failed2: -3, best: 1, untried: 0.5, "late:best": 1 },
    "improve.edit": { gained: 1, stalled: -1, "late:tune": 1, "early:explore": 0.5, parent_crowded: 0.5 },
    "improve.which_model": { "tune:best": 1, "swap_model:worst": 1 },
    "improve.swap_to": { failed2: -2, untried: 0.5 },
    "crossover.mode": { mix: 1 },
    "debug.repair": { give_up: 2, family_failing: 1 },
  },
};

async function contexts(policy = createGrammarPolicy(hand)): Promise<Record<Operator, OperatorContext>> {
  const a = (await policy.propose(tab, "draft", NO_PARENTS, createRng(1))).spec;
  const b = (await policy.propose(tab, "draft", NO_PARENTS, createRng(7))).spec;
  const mem = {
    sections: [
      {
        title: "History:",
        entries: [
          shown("s1", ["svm"], "timeout"),
          shown("s2", ["svm"], "timeout"),
          shown("s3", ["hist_gb"], 0.9, { operator: "improve", gain: 0.1, change: "features" }),
        ],
      },
    ],
    budget: true,
  };
  return {
    draft: { parents: [], shown: mem, budget: BUDGET },
    improve: { parents: [view("a", a)], shown: mem, budget: BUDGET },
    debug: {
      parents: [view("a", a, { status: "timeout", errorSignature: "timeout", validScore: null })],
      shown: mem,
      budget: BUDGET,
    },
    crossover: { parents: [view("a", a, { validScore: 0.7 }), view("b", b, { validScore: 0.9 })], shown: mem, budget: BUDGET },
  };
}

describe("context labels in the grammar policy", () => {
  it("version 3: every operator's logProb and choices replay exactly; seeds and contexts fix the program", async () => {
    const policy = createGrammarPolicy(hand);
    const ctxs = await contexts(policy);
    let labelled = 0;
    for (const op of ["draft", "improve", "debug", "crossover"] as const) {
      for (let seed = 1; seed <= 6; seed++) {
        const out = await policy.propose(tab, op, ctxs[op], createRng(seed));
        labelled += out.choices.filter((c) => c.optionFeatures).length;
        expect(logProb(hand, out.code, tab, op, ctxs[op])).toBeCloseTo(out.logProb, 10);
        expect(replayChoices(hand, out.code, tab, op, ctxs[op])).toEqual(out.choices);
        expect(out.choices.reduce((s, c) => s + choiceLogProb(hand, c), 0)).toBeCloseTo(out.logProb, 10);
        expect((await policy.propose(tab, op, ctxs[op], createRng(seed))).code).toBe(out.code);
      }
    }
    expect(labelled).toBeGreaterThan(10);
  });

  it("versions 1 and 2 see no context labels: the same program with or without the shown memory", async () => {
    const v1 = createGrammarPolicy({ version: 1, logits: base });
    const ctxs = await contexts(v1);
    for (const op of ["draft", "improve", "debug", "crossover"] as const) {
      const bare = { ...ctxs[op], shown: undefined };
      const a = await v1.propose(tab, op, ctxs[op], createRng(3));
      const b = await v1.propose(tab, op, bare, createRng(3));
      expect(a.choices.some((c) => c.optionFeatures)).toBe(false);
      expect(a.code).toBe(b.code);
    }
  });

  it("a label's weight moves its option's probability: svm failed twice is drafted less often", () => {
    const choice = (of?: Record<string, string[]>): GrammarChoice => ({
      name: "draft.tabular.model",
      value: "svm",
      logProb: 0,
      options: ["svm", "hist_gb"],
      ...(of ? { optionFeatures: of } : {}),
    });
    const p: GrammarParams = { version: 3, logits: {}, optionWeights: { "draft.model": { failed2: -3 } } };
    expect(Math.exp(choiceLogProb(p, choice()))).toBeCloseTo(0.5, 12);
    // e^-3 / (e^-3 + 1)
    expect(Math.exp(choiceLogProb(p, choice({ svm: ["failed2"] })))).toBeCloseTo(0.0474258732, 9);
    expect(Math.exp(choiceLogProb({ ...p, version: 2 } as GrammarParams, choice({ svm: ["failed2"] })))).toBeCloseTo(
      0.5,
      12,
    );
  });

  it("gradientStep reaches the option weights: Σ over labelled options of lr·w·(1[o = value] − p(o))", () => {
    const c: GrammarChoice = {
      name: "improve.tabular.edit.sklearn",
      value: "tune",
      logProb: 0,
      options: ["tune", "features", "validation"],
      optionFeatures: { tune: ["late:tune"], features: ["gained"], validation: ["gained"] },
    };
    const p = gradientStep({ version: 3, logits: {}, optionWeights: {} }, [{ choices: [c], weight: 2 }], 0.3);
    // uniform p = 1/3: late:tune += 0.6·(2/3) = 0.4; gained += 0.6·(−1/3) · 2 options = −0.4
    expect(p.optionWeights!["improve.edit"]!["late:tune"]).toBeCloseTo(0.4, 12);
    expect(p.optionWeights!["improve.edit"]!.gained).toBeCloseTo(-0.4, 12);
    expect(p.logits["improve.tabular.edit.sklearn"]!.tune).toBeCloseTo(0.4, 12);
    const off = gradientStep({ version: 3, logits: {}, optionWeights: {} }, [{ choices: [c], weight: 2 }], 0.3, {
      context: false,
    });
    expect(off.optionWeights).toEqual({});
    expect(gradientStep({ version: 1, logits: {} }, [{ choices: [c], weight: 2 }], 0.3).version).toBe(1);
  });

  it("version 3 params round-trip through JSON; option weights on version 1 or 2 are refused", () => {
    expect(paramsFromJson(paramsToJson(hand))).toEqual(hand);
    expect(() => paramsFromJson('{"version":2,"logits":{},"optionWeights":{}}')).toThrow(/set "version": 3/);
    expect(() => paramsFromJson('{"version":3,"logits":{},"optionWeights":{"k":{"l":"x"}}}')).toThrow(/finite/);
  });
});
