import { describe, expect, it } from "vitest";
import { createGrammarPolicy, methodFamily, isSolutionSpec } from "../policy/index.js";
import { metaTask, BUDGET, NO_PARENTS, view } from "../policy/grammar/test-helpers/tasks.js";
import { createRng } from "../util/rng.js";
import { detectMethodFamily } from "./method-family.js";

describe("the grammar policy's family names are the card detector's", () => {
  const tasks = [
    metaTask({ modality: "tabular" }), metaTask({ modality: "tabular", taskType: "regression", metric: "rmse", higherIsBetter: false, classes: undefined }),
    metaTask({ modality: "text" }), metaTask({ modality: "image" }), metaTask({ modality: "time_series", taskType: "regression", metric: "mae", higherIsBetter: false, classes: undefined }),
    metaTask({ modality: "audio" }),
  ];
  it("methodFamily(spec) = detectMethodFamily(rendered program) over sampled drafts, improves and crossovers", async () => {
    const policy = createGrammarPolicy();
    const seen = new Set<string>();
    for (const task of tasks) {
      const specs: unknown[] = [];
      for (let seed = 0; seed < 25; seed++) {
        const d = await policy.propose(task, "draft", NO_PARENTS, createRng(seed));
        specs.push(d.spec);
        expect([seed, methodFamily(d.spec as never)]).toEqual([seed, detectMethodFamily(d.code)]);
        seen.add(detectMethodFamily(d.code));
        const i = await policy.propose(task, "improve", { parents: [view("p", d.spec)], budget: BUDGET }, createRng(seed + 100));
        if (isSolutionSpec(i.spec)) expect(methodFamily(i.spec)).toBe(detectMethodFamily(i.code));
        if (seed > 0) {
          const c = await policy.propose(task, "crossover", { parents: [view("a", specs[seed - 1]), view("b", d.spec)], budget: BUDGET }, createRng(seed + 200));
          if (isSolutionSpec(c.spec)) expect(methodFamily(c.spec)).toBe(detectMethodFamily(c.code));
        }
      }
    }
    expect(seen.size).toBeGreaterThan(3);
  });
});
