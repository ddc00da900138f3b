import { describe, expect, it } from "vitest";
import type { GrammarChoice, GrammarParams } from "../../policy/grammar/index.js";
import { diffDecisions, summariseShifts } from "./decision-diff.js";

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
