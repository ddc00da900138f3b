import { describe, expect, it } from "vitest";
import { EvolveConfig } from "../../evo/index.js";
import { CollectSftConfig, SftTrainConfig } from "../sft/sft-config.js";
import { frozenConfig, LOOP_PRESETS, LOOP_PRESET_SETTINGS, LoopConfig, stageSettings } from "./loop-config.js";
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

  it("a nested override (rl.gspo) keeps the preset's other keys of that object", () => {
    const s = stageSettings(LoopConfig.parse({ preset: "laptop", rl: { gspo: { epsilon: 0.1 } } }));
    expect(s.rl.gspo).toEqual({ lr: LOOP_PRESET_SETTINGS.laptop.rl.gspo!.lr, epsilon: 0.1 });
  });

  it.each(LOOP_PRESETS)("%s: the frozen config gives the same settings and no longer reads the preset", (preset) => {
    const cfg = LoopConfig.parse({ preset, evolve: { steps: 3 }, rl: { gspo: { epsilon: 0.1 } } });
    const frozen = frozenConfig(cfg);
    expect(stageSettings(frozen)).toEqual(stageSettings(cfg));
    expect(LoopConfig.parse(JSON.parse(JSON.stringify(frozen)))).toEqual(frozen); // stores and reads back
    // a retuned preset changes what the unfrozen config runs, not what the frozen one runs
    const before = stageSettings(frozen);
    const saved = structuredClone(LOOP_PRESET_SETTINGS[preset]);
    try {
      Object.assign(LOOP_PRESET_SETTINGS[preset], { sft: { epochs: 1, lr: 99 }, rl: { steps: 99 } });
      expect(stageSettings(frozen)).toEqual(before);
      expect(stageSettings(cfg).sft).toEqual({ epochs: 1, lr: 99 });
    } finally {
      Object.assign(LOOP_PRESET_SETTINGS[preset], saved);
    }
  });
});
