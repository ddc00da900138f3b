// The registration rules, table-driven with hand-written expectations.
import { leaderboardHash } from "./task-leaderboards.js";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ResolvedPlan } from "./experiment-plan.js";
import {
  disjointFromTraining, isFirstCompleted, isRegistrationRequired, look, nextRun, planHash, registrationId,
  resultLabel, type RunState,
} from "./registration.js";

const PLAN: ResolvedPlan = {
  name: "p",
  question: "q",
  arms: [
    { name: "a", policy: { kind: "params", name: "uniform" }, harness: null, trainingTasks: [] },
    { name: "b", policy: { kind: "params", name: "default" }, harness: null, trainingTasks: [] },
  ],
  taskItems: ["penguins"],
  tasks: [{ id: "penguins", packageHash: "0123456789abcdef", leaderboardHash: null, study: "penguins", ref: "penguins" }],
  level: { kind: "drafts", draws: 2 },
  seed: 1,
  measures: ["valid_rate"],
  decision: { measure: "valid_rate", comparison: ["a", "b"], test: "paired-bootstrap", alpha: 0.05, direction: "greater" },
  timeoutS: 60,
  memoryMb: 1024,
  concurrency: 1,
  kitCommit: "abc",
};

const run = (n: number, status: RunState["status"], reg = false): RunState => ({
  runId: `exp-x-r${n}`,
  runNumber: n,
  status,
  isRegisteredResult: reg,
});

describe("planHash", () => {
  it("is sha256 of the canonical JSON (sorted keys, task refs left out)", () => {
    const canonical =
      '{"arms":[{"harness":null,"name":"a","policy":{"kind":"params","name":"uniform"},"trainingTasks":[]},' +
      '{"harness":null,"name":"b","policy":{"kind":"params","name":"default"},"trainingTasks":[]}],' +
      '"concurrency":1,"decision":{"alpha":0.05,"comparison":["a","b"],"direction":"greater","measure":"valid_rate",' +
      '"test":"paired-bootstrap"},"kitCommit":"abc","level":{"draws":2,"kind":"drafts"},"measures":["valid_rate"],' +
      '"memoryMb":1024,"name":"p","question":"q","seed":1,"taskItems":["penguins"],' +
      '"tasks":[{"id":"penguins","leaderboardHash":null,"packageHash":"0123456789abcdef","study":"penguins"}],"timeoutS":60}';
    expect(planHash(PLAN)).toBe(createHash("sha256").update(canonical).digest("hex"));
    expect(registrationId(planHash(PLAN))).toBe(`exp-${planHash(PLAN).slice(0, 12)}`);
  });

  it.each([
    ["a task folder elsewhere (same package)", { tasks: [{ ...PLAN.tasks[0]!, ref: "/elsewhere/penguins" }] }, true],
    ["another package hash", { tasks: [{ ...PLAN.tasks[0]!, packageHash: "ffffffffffffffff" }] }, false],
    ["another kit commit", { kitCommit: "def" }, false],
    ["another draw count", { level: { kind: "drafts", draws: 3 } }, false],
    ["another alpha", { decision: { ...PLAN.decision, alpha: 0.01 } }, false],
  ] as const)("%s: same hash = %s", (_, change, same) => {
    expect(planHash({ ...PLAN, ...change } as ResolvedPlan) === planHash(PLAN)).toBe(same);
  });
});

describe("isRegistrationRequired", () => {
  it.each([
    ["no confirm suite", [], false],
    ["confirm tasks, none in the plan", ["dev-x", "confirm-y"], false],
    ["the plan names one", ["penguins"], true],
  ] as const)("%s → %s", (_, confirm, want) => {
    expect(isRegistrationRequired(PLAN, new Set(confirm))).toBe(want);
  });
});

describe("resultLabel", () => {
  it.each([
    ["exploratory", "exploratory", { runNumber: 1, isRegisteredResult: true }, "exploratory"],
    ["exploratory re-run", "exploratory", { runNumber: 2, isRegisteredResult: false }, "exploratory"],
    ["the registered result", "registered", { runNumber: 1, isRegisteredResult: true }, "registered exp-1"],
    [
      "a re-run",
      "registered",
      { runNumber: 2, isRegisteredResult: false },
      "re-run 2 of registered exp-1 (not the registered result)",
    ],
  ] as const)("%s", (_, label, r, want) => {
    expect(resultLabel({ registrationId: "exp-1", label }, r)).toBe(want);
  });
});

describe("nextRun and the registered result", () => {
  it.each([
    ["no run yet", [], { action: "new", runId: "exp-x-r1", runNumber: 1 }],
    ["a run killed while running", [run(1, "running")], { action: "resume", runId: "exp-x-r1", runNumber: 1 }],
    ["a failed run", [run(1, "failed")], { action: "resume", runId: "exp-x-r1", runNumber: 1 }],
    ["a completed run: a re-run", [run(1, "completed", true)], { action: "new", runId: "exp-x-r2", runNumber: 2 }],
    [
      "the latest counts, not the first",
      [run(2, "failed"), run(1, "completed", true)],
      { action: "resume", runId: "exp-x-r2", runNumber: 2 },
    ],
  ] as const)("%s", (_, runs, want) => {
    expect(nextRun("exp-x", runs)).toEqual(want);
  });

  it.each([
    ["the first run to complete", [run(1, "running")], "exp-x-r1", true],
    ["after a failed one", [run(1, "failed"), run(2, "running")], "exp-x-r2", true],
    ["a re-run after a completed one", [run(1, "completed", true), run(2, "running")], "exp-x-r2", false],
  ] as const)("isFirstCompleted: %s → %s", (_, runs, id, want) => {
    expect(isFirstCompleted(runs, id)).toBe(want);
  });
});

describe("the look log", () => {
  it("a look is the time, the command and what was read", () => {
    expect(look("exp-1", "openmle experiment show exp-1", "results of run exp-1-r1", () => 86_400_000)).toEqual({
      registrationId: "exp-1",
      at: new Date("1970-01-02T00:00:00Z"),
      command: "openmle experiment show exp-1",
      what: "results of run exp-1-r1",
    });
  });
});

describe("disjointFromTraining", () => {
  const study = (t: string) => ({ "ames-a": "ames", "ames-b": "ames", iris: "iris" })[t] ?? t;
  it.each([
    ["built-in arms (no training)", new Map([["u", []]]), true, [], []],
    ["training on other studies", new Map([["g1", ["iris", "cars"]]]), true, [], []],
    [
      "a training task sharing a study with a plan task",
      new Map([["g1", ["iris", "ames-b"]]]),
      false,
      [{ arm: "g1", planTask: "ames-a", trainingTask: "ames-b", study: "ames" }],
      [],
    ],
    ["the same task", new Map([["g1", ["penguins"]]]), false, [{ arm: "g1", planTask: "penguins", trainingTask: "penguins", study: "penguins" }], []],
    ["unknown training", new Map<string, string[] | "unknown">([["llm", "unknown"]]), true, [], ["llm"]],
  ] as const)("%s", (_, training, ok, overlaps, unknown) => {
    expect(disjointFromTraining(["ames-a", "penguins"], training, study)).toEqual({ ok, overlaps, unknown });
  });
});

describe("leaderboardHash", () => {
  const lb = { source: "t", scores: [0.9, 0.8], teamIds: ["a", "b"] };
  it("is the first 16 hex digits of sha256 of the scores and team ids in rank order", () => {
    const text = JSON.stringify({ scores: [0.9, 0.8], teamIds: ["a", "b"] });
    expect(leaderboardHash(lb)).toBe(createHash("sha256").update(text).digest("hex").slice(0, 16));
  });
  it.each([
    ["a moved score", { ...lb, scores: [0.9, 0.7] }],
    ["swapped teams", { ...lb, teamIds: ["b", "a"] }],
    ["no team ids", { source: "t", scores: [0.9, 0.8] }],
  ])("changes with %s; not with the source", (_, other) => {
    expect(leaderboardHash(other)).not.toBe(leaderboardHash(lb));
    expect(leaderboardHash({ ...lb, source: "elsewhere" })).toBe(leaderboardHash(lb));
  });
});
