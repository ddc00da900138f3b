import { describe, expect, it } from "vitest";
import { EvolveConfig } from "../../evo/index.js";
import { CollectSftConfig, SftTrainConfig } from "../sft/sft-config.js";
import { LOOP_PRESETS, LoopConfig, stageSettings } from "./loop-config.js";
import { RlConfig } from "../rl/rl-config.js";

describe("loop presets", () => {
  it.each(LOOP_PRESETS)("%s: every stage's settings pass that stage's own schema", (preset) => {
    const s = stageSettings(LoopConfig.parse({ preset }));
    expect(() => EvolveConfig.parse(s.evolve)).not.toThrow();
    expect(() => CollectSftConfig.parse(s.collect)).not.toThrow();
    expect(() => SftTrainConfig.parse(s.sft)).not.toThrow();
    expect(() => RlConfig.parse(s.rl)).not.toThrow();
  });

  it("overrides replace the preset's values; unknown loop keys are errors", () => {
    const s = stageSettings(LoopConfig.parse({ preset: "smoke", evolve: { steps: 5 }, rl: { group: 3 } }));
    expect(s.evolve.steps).toBe(5);
    expect(s.evolve.gen0Drafts).toBe(2);
    expect(s.rl.group).toBe(3);
    expect(() => LoopConfig.parse({ generation: 2 })).toThrow();
  });
});
