// The catalogue: every spec validates, the rules of a spec reject what they should (table-driven), and every paper
// row is carried as reference.
import { describe, expect, it } from "vitest";
import { EXPERIMENTS, experimentById } from "./catalogue.js";
import { SEARCH_EXPERIMENTS } from "./catalogue-search.js";
import { UnknownExperimentError } from "./errors.js";
import { ExperimentSpec, type ExperimentSpecInput } from "./experiment-spec.js";

const base = SEARCH_EXPERIMENTS[0]!;
const smoke = base.presets.smoke!;
const laptop = base.presets.laptop!;

describe("the catalogue", () => {
  it("has one spec per paper item, ids unique, each valid", () => {
    const ids = EXPERIMENTS.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      "model-fixed-harness", "harness-fixed-model", "modality", "search-efficiency", "solution-ceiling", "naturebench",
      "coding-harness", "rl-reward-design", "async-rl", "sft-composition", "gym-funnel",
    ]);
  });

  it("lays out only cells of experiments that run them", () => {
    for (const e of EXPERIMENTS.filter((x) => x.sharesCellsWith)) {
      const owner = experimentById(e.sharesCellsWith!);
      expect(owner.sharesCellsWith, e.id).toBeUndefined();
      expect(owner.presets.laptop, e.id).toBeDefined();
    }
  });

  it("carries the paper's numbers (docs/paper-map.md)", () => {
    expect(experimentById("model-fixed-harness").reference.map((r) => r.values["medal-average"])).toEqual([
      "39.39 ± 5.67", "60.61 ± 7.73", "34.85", "53.03",
    ]);
    expect(experimentById("sft-composition").reference.map((r) => [r.row, r.values.share])).toEqual([
      ["draft", "74.0%"], ["debug", "16.5%"], ["improve", "6.6%"], ["crossover", "2.8%"],
    ]);
    expect(experimentById("gym-funnel").reference.at(-1)).toEqual({ row: "semantic quality gate", values: { count: 2240, share: "20.0%" } });
  });

  it("names the valid ids for an unknown one", () => {
    expect(() => experimentById("table-9")).toThrow(UnknownExperimentError);
    expect(() => experimentById("table-9")).toThrow(/Experiments: model-fixed-harness, .*openmle reproduce --list/);
  });
});

describe("ExperimentSpec rules", () => {
  const cases: [string, Partial<ExperimentSpecInput>, RegExp][] = [
    ["no smoke preset", { presets: { laptop } }, /smoke preset/],
    ["laptop avg@2", { presets: { smoke, laptop: { ...laptop, repeats: 2 } } }, /k ≥ 3/],
    ["a search arm without a harness", { presets: { smoke: { ...smoke, arms: [{ id: "a", label: "a", policy: "uniform" }] } } }, /names its harness/],
    ["repeated arm ids", { presets: { smoke: { ...smoke, arms: [smoke.arms[0]!, smoke.arms[0]!] } } }, /arm ids repeat/],
    ["reference-only with presets", { kind: "reference-only" }, /has no presets/],
    ["shares cells and has presets", { sharesCellsWith: "harness-fixed-model" }, /no presets of its own/],
    ["no reference row", { reference: [] }, /reference/],
    ["an unknown key", { tables: 1 } as Partial<ExperimentSpecInput>, /Unrecognized key/],
  ];
  it.each(cases)("%s is rejected", (_name, change, says) => {
    const r = ExperimentSpec.safeParse({ ...base, ...change });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toMatch(says);
  });
  it("the unchanged spec passes", () => expect(ExperimentSpec.safeParse(base).success).toBe(true));
});
