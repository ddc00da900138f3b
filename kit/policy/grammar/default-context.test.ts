import { describe, expect, it } from "vitest";
import { CONTEXT_WEIGHTS } from "./context-weights.js";
import { defaultGrammarParams, handSetGrammarParams, withoutContextFeatures } from "./default-params.js";
import { choiceLogProb, type GrammarChoice } from "./params.js";

// Every label the default params weigh moves its option's probability the way its measured weight says, against the
// same decision with no labels; the measured signs that read as sensible use are pinned (a re-measurement that flips
// one should be read, not absorbed).
const p = defaultGrammarParams();
const decisionOf: Record<string, string> = {
  "crossover.mode": "crossover.tabular.mode",
  "draft.model": "draft.tabular.model",
  "improve.add_family": "improve.tabular.add_family",
  "improve.edit": "improve.tabular.edit.sklearn",
  "improve.swap_to": "improve.tabular.swap_to",
  "improve.which_model": "improve.tabular.which_model",
};
const choice = (key: string, label?: string): GrammarChoice => ({
  name: decisionOf[key] ?? `${key.split(".")[0]}.tabular.${key.split(".")[1]}`,
  value: "a",
  logProb: 0,
  options: ["a", "b", "c"],
  ...(label ? { optionFeatures: { a: [label] } } : {}),
});

describe("the default context weights", () => {
  const rows = Object.entries(CONTEXT_WEIGHTS).flatMap(([key, row]) =>
    Object.entries(row).map(([label, w]) => [key, label, w] as const),
  );
  it.each(rows)("%s %s (weight %f) moves p in its direction", (key, label, w) => {
    const bare = Math.exp(choiceLogProb(p, choice(key)));
    const labelled = Math.exp(choiceLogProb(p, choice(key, label)));
    // uniform base row here: p = e^w / (e^w + 2)
    expect(labelled).toBeCloseTo(Math.exp(w) / (Math.exp(w) + 2), 12);
    expect(Math.sign(labelled - bare)).toBe(Math.sign(w));
    expect(Math.exp(choiceLogProb(withoutContextFeatures(p), choice(key, label)))).toBeCloseTo(bare, 12);
  });

  it.each([
    ["improve.which_model", "swap_model:worst", 1],
    ["improve.which_model", "tune:best", 1],
    ["improve.which_model", "tune:worst", -1],
    ["crossover.mode", "mix", 1],
    ["improve.edit", "gained", 1],
    ["improve.edit", "late:tune", 1],
    ["improve.swap_to", "untried", 1],
    ["improve.swap_to", "far", -1],
  ] as const)("measured: %s %s has sign %i", (key, label, sign) => {
    expect(Math.sign(CONTEXT_WEIGHTS[key]?.[label] ?? 0)).toBe(sign);
  });

  it("the defaults are the hand-set logits plus the measured weights (version 3)", () => {
    expect(p).toEqual({ version: 3, logits: handSetGrammarParams().logits, optionWeights: CONTEXT_WEIGHTS });
  });
});
