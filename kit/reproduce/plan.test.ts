// Plans with hand-computed counts: cells = arms × tasks × repeats (search), arms × repeats (rl); programs and cost.
import { describe, expect, it } from "vitest";
import { experimentById, selectArms } from "./catalogue.js";
import { PresetNotDefinedError } from "./errors.js";
import { CORPUS_BUILD_MIN, LAPTOP_PROGRAMS_PER_MIN, LAPTOP_RL_PROGRAMS_PER_MIN, planExperiment } from "./plan.js";
import { catalogueRows, formatMinutes, planText } from "./plan-text.js";

const plan = (id: string, preset: "smoke" | "laptop" | "paper") => planExperiment(experimentById(id), preset);

describe("planExperiment", () => {
  it.each([
    // id, preset, arms, tasks, repeats, cells, programs, GPU hours
    ["model-fixed-harness", "paper", 4, 22, 3, 4 * 22 * 3, 4 * 22 * 3 * 200, 4 * 22 * 3 * 12],
    ["model-fixed-harness", "laptop", 4, 10, 3, 120, 1200, null],
    ["harness-fixed-model", "paper", 4, 22, 3, 264, 52_800, 3168],
    ["model-fixed-harness", "smoke", 2, 2, 1, 4, 8, null],
    // rl: 6 cells × 12 steps × 4 groups × 8 programs, + the static arm's 3 cells × 30 trivial baselines
    ["rl-reward-design", "laptop", 2, 30, 3, 6, 6 * 12 * 4 * 8 + 3 * 30, null],
    ["async-rl", "smoke", 2, 2, 1, 2, 2 * 2, null],
    // sft: 30 tasks × 2 repeats teacher runs of 10 steps, + 8 parallel drafts per task in each repeat
    ["sft-composition", "laptop", 1, 30, 2, 60, 600 + 480, null],
    ["gym-funnel", "laptop", 1, 0, 1, 1, 0, null],
  ] as const)("%s at %s", (id, preset, arms, tasks, repeats, cells, programs, gpuHours) => {
    const p = plan(id, preset);
    expect(p.totals).toMatchObject({ arms, tasks, repeats, cells, programs, gpuHours });
    expect(p.cells).toHaveLength(cells);
  });

  it("laptop minutes are programs at the measured rate; the funnel is its measured build, pro rata", () => {
    // A corpus suite's tasks need the corpus built first: its minutes are part of the cost until it is.
    expect(plan("model-fixed-harness", "laptop").totals.laptopMinutes).toBeCloseTo(1200 / LAPTOP_PROGRAMS_PER_MIN + CORPUS_BUILD_MIN);
    expect(plan("model-fixed-harness", "laptop").totals.first).toEqual([{ what: "the corpus build (openmle task build-corpus --jobs 2)", minutes: CORPUS_BUILD_MIN }]);
    const built = planExperiment(experimentById("model-fixed-harness"), "laptop", { corpusBuilt: true });
    expect(built.totals).toMatchObject({ laptopMinutes: expect.closeTo(1200 / LAPTOP_PROGRAMS_PER_MIN, 6), first: [] });
    expect(planText(experimentById("model-fixed-harness"), plan("model-fixed-harness", "laptop"))).toContain(
      `, of which first the corpus build (openmle task build-corpus --jobs 2): ${CORPUS_BUILD_MIN} min`,
    );
    expect(plan("model-fixed-harness", "smoke").totals.first).toEqual([]); // built-in tasks need no corpus
    // rl cells at the rate trainRL measured (6 cells × 12 steps × 4 groups × 8 programs + 90 trivial baselines)
    expect(plan("rl-reward-design", "laptop").totals.laptopMinutes).toBeCloseTo(2394 / LAPTOP_RL_PROGRAMS_PER_MIN + CORPUS_BUILD_MIN);
    expect(plan("gym-funnel", "smoke").totals.laptopMinutes).toBeCloseTo((CORPUS_BUILD_MIN * 2) / 412);
    expect(plan("model-fixed-harness", "paper").totals.laptopMinutes).toBeNull();
  });

  it("every cell of a search plan is one arm, task and repeat, once", () => {
    const p = plan("model-fixed-harness", "paper");
    const keys = p.cells.map((c) => `${c.arm}/${c.task}/${c.repeat}`);
    expect(new Set(keys).size).toBe(264);
    expect(p.cells[0]).toEqual({ arm: "base-35b", task: "aerial-cactus-identification", repeat: 1, programs: 200 });
  });

  it("an experiment that lays out another's cells plans none", () => {
    expect(plan("modality", "laptop")).toMatchObject({ sharesCellsWith: "model-fixed-harness", cells: [], totals: { cells: 0 } });
  });

  it.each([
    ["coding-harness", "laptop", /no laptop preset \(its rows are the paper's reference only\)/],
    ["naturebench", "paper", /no paper preset: pass --preset smoke or laptop/],
  ] as const)("%s has no %s preset", (id, preset, says) => {
    expect(() => plan(id, preset)).toThrow(PresetNotDefinedError);
    expect(() => plan(id, preset)).toThrow(says);
  });
});

describe("plan text", () => {
  it("names every arm with its counts and the totals in words", () => {
    const text = planText(experimentById("model-fixed-harness"), plan("model-fixed-harness", "paper"));
    expect(text).toMatch(/arm trained-35b +Frontis-MA1-35B \(policy endpoint:frontis-ma1-35b, harness openmle\): 66 cells, 13,200 programs/);
    expect(text).toMatch(/total: 264 cells, 52,800 programs; 3,168 sandbox GPU hours \(12 h per run; the paper capped the GPU at 12 GB\)$/m);
    // what the run needs: one server per endpoint arm and the imported MLE-bench Lite packages
    expect(text.split("\n").at(-1)).toBe(
      "  runs with: --endpoint qwen3.6-35b-a3b=URL --endpoint frontis-ma1-35b=URL --endpoint base-30b=URL " +
        "--endpoint trained-30b=URL --mlebench-dir DIR (.devcontainer/README.md walks through it)");
    expect(planText(experimentById("model-fixed-harness"), plan("model-fixed-harness", "laptop"))).not.toMatch(/runs with/);
    expect(text).not.toMatch(/NaN|undefined|\{"/);
  });
  it("says how many of an rl arm's programs are trivial baselines, and only where it runs them", () => {
    const text = planText(experimentById("rl-reward-design"), plan("rl-reward-design", "laptop"));
    expect(text).toMatch(/arm static .*: 3 cells, 1,242 programs \(90 of them trivial baselines, the static worst bound: one per task\)$/m);
    expect(text).toMatch(/arm adaptive .*: 3 cells, 1,152 programs$/m);
  });
  it("names an sft arm's teacher-run settings (the loop's laptop evolve settings)", () => {
    const text = planText(experimentById("sft-composition"), plan("sft-composition", "laptop"));
    expect(text).toMatch(/arm default +default teacher \(policy default, settings \{"maxAttempts":8\}, teacher runs \{[^)]*"gen0Drafts":3[^)]*\}\): 60 cells/);
  });
  it("formats minutes", () => {
    expect([0.2, 45, 89, 90, 150].map(formatMinutes)).toEqual(["1 min", "45 min", "89 min", "1.5 h", "2.5 h"]);
  });
  it("the list gives a laptop cost to every experiment that runs cells of its own", () => {
    for (const r of catalogueRows())
      expect(r.laptopMinutes === null, r.id).toBe(!!r.sharesCellsWith || r.kind === "reference-only");
  });
});

describe("selectArms", () => {
  it("keeps the named arms in the spec's order; unknown ids name the valid ones", () => {
    const s = selectArms(experimentById("model-fixed-harness"), "paper", ["trained-35b", "base-35b"]);
    expect(s.presets.paper!.arms.map((a) => a.id)).toEqual(["base-35b", "trained-35b"]);
    expect(plan("model-fixed-harness", "paper").totals.cells).toBe(264); // the catalogue is untouched
    expect(planExperiment(s, "paper").totals).toMatchObject({ arms: 2, cells: 132 });
    expect(() => selectArms(experimentById("model-fixed-harness"), "paper", ["qwen"])).toThrow(
      "model-fixed-harness (paper) has no arm qwen: its arms are base-35b, trained-35b, base-30b, trained-30b");
    expect(() => selectArms(experimentById("modality"), "laptop", ["uniform"])).toThrow(/has no arms of its own/);
  });
});
