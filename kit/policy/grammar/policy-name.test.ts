import { describe, expect, it } from "vitest";
import { defaultGrammarParams } from "./default-params.js";
import { createCheckpointPolicy, createGrammarPolicy } from "./grammar-policy.js";
import { configHash } from "../../store/index.js";
import type { GrammarParams } from "./params.js";

// One naming rule for trained grammar policies, so evaluate() groups runs by checkpoint whichever command wrote them.
describe("grammar policy names", () => {
  const trained: GrammarParams = { version: 1, logits: { "draft.tabular.model": { xgboost: 1 } } };
  it.each([
    ["default params", defaultGrammarParams(), undefined, "grammar"],
    ["default params, checkpoint 'default'", defaultGrammarParams(), "default", "grammar"],
    ["unnamed params", trained, undefined, `grammar@${configHash(trained).slice(0, 8)}`],
    ["a named checkpoint", trained, "loop-g1", "grammar:loop-g1"],
  ] as const)("%s", (_, params, checkpoint, name) => {
    expect(createCheckpointPolicy(params, checkpoint).name).toBe(name);
  });
  it("a checkpoint policy proposes exactly what the plain policy with the same params does", () => {
    expect(createCheckpointPolicy(trained, "x").params).toBe(createGrammarPolicy(trained).params);
  });
});
