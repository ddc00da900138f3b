// Plan files: snake_case JSON with defaults, every mistake one line naming where it is.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePlan, readPlanFile } from "./experiment-plan.js";

const BASE = {
  name: "t",
  question: "does default beat uniform?",
  arms: [
    { name: "u", params: "uniform" },
    { name: "d", params: "default" },
  ],
  tasks: ["penguins"],
  decision: { measure: "valid_rate", comparison: ["d", "u"] },
};

describe("parsePlan", () => {
  it("fills the defaults and reads snake_case keys", () => {
    const p = parsePlan({ ...BASE, timeout_s: 30, memory_mb: 512, measures: ["valid_rate"] });
    expect(p).toMatchObject({
      level: { kind: "drafts", draws: 32 },
      seed: 1,
      timeoutS: 30,
      memoryMb: 512,
      concurrency: 1,
      decision: { measure: "valid_rate", comparison: ["d", "u"], test: "paired-bootstrap", alpha: 0.05, direction: "greater" },
    });
    expect(parsePlan({ ...BASE, level: { kind: "search" } }).level).toEqual({ kind: "search", seeds: 4, steps: 16 });
    const llm = { name: "q", llm: { base_url: "http://127.0.0.1:8000/v1", model: "Qwen/Qwen3-8B" } };
    expect(parsePlan({ ...BASE, arms: [...BASE.arms, llm] }).arms[2]).toEqual({
      name: "q",
      llm: { baseUrl: "http://127.0.0.1:8000/v1", model: "Qwen/Qwen3-8B" },
    });
  });

  it.each([
    ["two policies on one arm", { arms: [{ name: "u", params: "uniform", checkpoint: "c" }, BASE.arms[1]] },
      /arms\.0: give exactly one of params, checkpoint, params_file, llm/],
    ["no policy", { arms: [{ name: "u" }, BASE.arms[1]] }, /arms\.0: give exactly one/],
    ["an unknown params set", { arms: [{ name: "u", params: "best" }, BASE.arms[1]] }, /arms\.0\.params/],
    ["a name twice", { arms: [BASE.arms[0], { name: "u", params: "default" }] }, /arms\.1\.name: twice/],
    ["a comparison arm that is not there", { decision: { measure: "valid_rate", comparison: ["d", "x"] } },
      /decision\.comparison: no arm named x/],
    ["an arm compared with itself", { decision: { measure: "valid_rate", comparison: ["d", "d"] } },
      /compare two different arms/],
    ["a decision measure not measured", { measures: ["human_rank"] }, /measures: add the decision's valid_rate/],
    ["a harness at the drafts level", { arms: [{ ...BASE.arms[0], harness: "aira-evo" }, BASE.arms[1]] },
      /arms\.0\.harness: a harness needs level\.kind search/],
    ["an unknown key", { budget: 3 }, /Unrecognized key/],
    ["one arm", { arms: [BASE.arms[0]] }, /arms:/],
  ])("%s", (_, change, message) => {
    expect(() => parsePlan({ ...BASE, measures: ["valid_rate"], ...change })).toThrow(message);
  });
});

describe("readPlanFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "openmle-plan-"));
  it("refuses a missing file and bad JSON in one line each", () => {
    expect(() => readPlanFile(join(dir, "nope.json"))).toThrow(/^no plan file at .*nope\.json: pass the path/);
    writeFileSync(join(dir, "bad.json"), "{ name: ");
    expect(() => readPlanFile(join(dir, "bad.json"))).toThrow(/bad\.json is not valid JSON .*: fix the file/);
  });

  it.each(["learning-claim.json", "harness-comparison.json"])("the example plan bench/erl/plans/%s parses", (f) => {
    const p = readPlanFile(join(import.meta.dirname, "..", "..", "bench", "erl", "plans", f));
    expect(p.tasks).toEqual(["suite:confirm"]);
    expect(p.arms.length).toBeGreaterThanOrEqual(3);
  });
});
