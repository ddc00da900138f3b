import { describe, expect, it } from "vitest";
import { EVOLVE_PRESETS, EvolveConfig, upgradeStoredConfig } from "./config.js";

describe("EvolveConfig presets", () => {
  it.each([
    { input: {}, want: { preset: "laptop", steps: 20, perRunTimeoutS: 300, debugTimeCapS: 1800, debugMaxAttempts: 10 } },
    { input: { preset: "paper" as const }, want: { steps: 800, perRunTimeoutS: 7200, maxWallS: 43200, debugTimeCapS: 21600, debugMaxAttempts: 10, gen0Drafts: 5, crossoverProb: 0.5, crossoverMinGeneration: 2, islandMaxSize: 500 } },
    { input: { preset: "paper" as const, steps: 40 }, want: { steps: 40, perRunTimeoutS: 7200 } }, // explicit fields win
  ])("$input", ({ input, want }) => expect(EvolveConfig.parse(input)).toMatchObject(want));
  it("a parsed config parses to itself (resume reads the stored config)", () => {
    const c = EvolveConfig.parse({ preset: "paper", steps: 9 });
    expect(EvolveConfig.parse(c)).toEqual(c);
    expect(Object.keys(EVOLVE_PRESETS)).toEqual(["laptop", "paper"]);
  });
  it("a config stored before MCTS followed AIRA-dojo still reads (its numDrafts/maxChildren dropped); other unknown keys do not", () => {
    const old = { harness: "mcts", mcts: { c: 0.25, numDrafts: 5, maxChildren: 3, maxDebugDepth: 3 } };
    expect(EvolveConfig.safeParse(old).success).toBe(false);
    expect(EvolveConfig.parse(upgradeStoredConfig(old)).mcts).toEqual({ c: 0.25, numChildren: 5, maxDebugDepth: 3 });
    expect(EvolveConfig.safeParse(upgradeStoredConfig({ mcts: { numChilds: 2 } })).success).toBe(false);
  });
});
