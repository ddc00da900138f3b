import { describe, expect, it } from "vitest";
import type { ContextShown, OperatorContext, ShownNode } from "../types.js";
import { contextEvidence } from "./context-evidence.js";
import {
  crossoverModeFeatures,
  editOptionFeatures,
  familyOptionFeatures,
  repairFeatures,
  whichModelFeatures,
} from "./option-features.js";
import { BUDGET, shown } from "./test-helpers/tasks.js";

const ctx = (entries: ShownNode[], over: Partial<ContextShown> = {}, steps = 10): OperatorContext => ({
  parents: [],
  shown: { sections: [{ title: "t", entries }], budget: true, ...over },
  budget: { ...BUDGET, remainingSteps: steps },
});

describe("contextEvidence", () => {
  it("counts each family once per node, signed by the task's direction", () => {
    const c = ctx([
      shown("a", ["hist_gb"], 0.8),
      shown("b", ["hist_gb", "linear"], 0.6),
      shown("c", ["svm"], "timeout"),
      shown("d", ["svm"], "timeout"),
      shown("e", ["knn", "knn"], 0.7),
    ]);
    const up = contextEvidence(c, true);
    expect(up.best).toBe(0.8);
    expect(up.worst).toBe(0.6);
    expect(up.families.get("hist_gb")).toEqual({
      tried: 2, succeeded: 2, failed: 0, best: 0.8, mean: 0.7, failureKinds: [],
    });
    expect(up.families.get("svm")).toEqual({
      tried: 2, succeeded: 0, failed: 2, best: null, mean: null, failureKinds: ["timeout"],
    });
    expect(up.families.get("knn")!.tried).toBe(1);
    expect(up.failureCounts.get("timeout")).toBe(2);
    expect(up.stepsLeft).toBe(10);
    const down = contextEvidence(c, false); // lower is better: signed −score
    expect(down.best).toBe(-0.6);
    expect(down.families.get("hist_gb")!.best).toBe(-0.6);
  });

  it("gains per change kind come from shown Improve/Crossover entries only", () => {
    const ev = contextEvidence(
      ctx([
        shown("a", ["hist_gb"], 0.8, { operator: "improve", gain: 0.05, change: "features" }),
        shown("b", ["hist_gb"], 0.7, { operator: "improve", gain: -0.05, change: "model" }),
        shown("c", ["hist_gb"], 0.7, { operator: "draft", gain: 0.1, change: "model" }),
      ]),
      true,
    );
    expect(Object.fromEntries(ev.gains)).toEqual({ features: [0.05], model: [-0.05] });
  });

  it("a harness that lacks a field yields nothing from it", () => {
    const board = {
      currentBest: { nodeId: "z", methodFamily: "sklearn", score: 0.95 },
      runnerUp: null,
      families: [{ methodFamily: "xgboost", tried: 3, succeeded: 0, best: null }],
      underExplored: [],
      repeatedErrors: [],
      trend: [],
      lines: ["Current best: z"],
    };
    const full = ctx([shown("a", ["hist_gb"], 0.8), shown("c", ["svm"], "timeout")], { board });
    const evFull = contextEvidence(full, true);
    expect(evFull.best).toBe(0.95);
    expect(evFull.boardFamilies.get("xgboost")).toEqual({ tried: 3, succeeded: 0 });
    // each field removed in turn
    const noBoard = contextEvidence({ ...full, shown: { ...full.shown!, board: undefined } }, true);
    expect(noBoard.best).toBe(0.8);
    expect(noBoard.boardFamilies.size).toBe(0);
    const noSections = contextEvidence({ ...full, shown: { ...full.shown!, sections: [] } }, true);
    expect(noSections.families.size).toBe(0);
    expect(noSections.failureCounts.size).toBe(0);
    const noBudget = contextEvidence({ ...full, shown: { ...full.shown!, budget: false } }, true);
    expect(noBudget.stepsLeft).toBeNull();
    const nothing = contextEvidence({ parents: [], budget: BUDGET }, true);
    expect([nothing.families.size, nothing.best, nothing.stepsLeft]).toEqual([0, null, null]);
  });
});

describe("option features", () => {
  const ev = (entries: ShownNode[], steps = 8, over: Partial<ContextShown> = {}) =>
    contextEvidence(ctx(entries, over, steps), true);
  const entries = [
    shown("a", ["hist_gb"], 0.9),
    shown("b", ["hist_gb"], 0.85),
    shown("c", ["hist_gb"], 0.8),
    shown("d", ["random_forest"], 0.88),
    shown("e", ["linear"], 0.5),
    shown("f", ["svm"], "timeout"),
    shown("g", ["svm"], "timeout"),
    shown("h", ["knn"], "memory"),
  ];

  it.each([
    // family, steps left, expected labels (range 0.9 − 0.5 = 0.4; near = within 0.1 below the best)
    ["hist_gb", 8, ["best", "crowded"]],
    ["hist_gb", 3, ["best", "late:best", "crowded"]],
    ["random_forest", 8, ["near"]],
    ["linear", 8, ["far", "mean_far"]],
    ["svm", 8, ["failed2", "failed:timeout"]],
    ["knn", 8, ["failed1", "failed:memory"]],
    ["xgboost", 8, ["untried"]],
    ["xgboost", 20, ["untried", "early:untried"]],
  ] as const)("family %s with %i steps left → %j", (f, steps, labels) => {
    expect(familyOptionFeatures(ev(entries, steps), [f], "tabular")[f] ?? []).toEqual(labels);
  });

  it("board_failed2: the option's card family tried twice on the board without success", () => {
    const board = {
      currentBest: null,
      runnerUp: null,
      families: [{ methodFamily: "xgboost", tried: 2, succeeded: 0, best: null }],
      underExplored: [],
      repeatedErrors: [],
      trend: [],
      lines: [],
    };
    expect(familyOptionFeatures(ev([], 8, { board }), ["xgboost", "linear"], "tabular")).toEqual({
      xgboost: ["untried", "board_failed2"],
      linear: ["untried"],
    });
  });

  it("edit labels: gained, stalled, the parent's family, the budget's phase", () => {
    const gains = [
      shown("i1", ["hist_gb"], 0.9, { operator: "improve", change: "features", gain: 0.02 }),
      shown("i2", ["hist_gb"], 0.9, { operator: "improve", change: "features", gain: 0.01 }),
      shown("i3", ["hist_gb"], 0.8, { operator: "improve", change: "model", gain: 0.01 }),
      shown("i4", ["hist_gb"], 0.7, { operator: "improve", change: "validation", gain: -0.01 }),
      shown("i5", ["linear"], 0.5, { operator: "improve", change: "validation", gain: 0 }),
    ];
    const opts = ["tune", "swap_model", "features", "validation"];
    expect(editOptionFeatures(ev(gains, 8), opts, "hist_gb")).toEqual({
      features: ["gained"],
      validation: ["stalled"],
      swap_model: ["parent_crowded"],
    });
    expect(editOptionFeatures(ev(gains, 2), opts, "linear")).toEqual({
      features: ["gained"],
      validation: ["stalled"],
      swap_model: ["parent_far"],
      tune: ["late:tune"],
    });
    expect(editOptionFeatures(ev([], 30), opts, null)).toEqual({ swap_model: ["early:explore"] });
  });

  it("which model: the parent's printed per-model scores, in the task's direction", () => {
    const out = "hist_gb#0: validation rmse = 3.1\nlinear#1: validation rmse = 4.5\nknn#2: validation rmse = 3.9\n";
    expect(whichModelFeatures({ stdoutTail: out }, ["0", "1", "2"], "tune", false)).toEqual({
      "0": ["tune:best"],
      "1": ["tune:worst"],
    });
    expect(whichModelFeatures({ stdoutTail: out }, ["0", "1", "2"], "swap_model", true)).toEqual({
      "1": ["swap_model:best"],
      "0": ["swap_model:worst"],
    });
    expect(whichModelFeatures({ stdoutTail: "hist_gb#0: validation rmse = 3" }, ["0", "1"], "tune", true)).toEqual({});
  });

  it("crossover mode and debug repair labels", () => {
    expect(crossoverModeFeatures("hist_gb", "linear")).toEqual({ ensemble: ["mix"] });
    expect(crossoverModeFeatures("hist_gb", "hist_gb")).toEqual({ ensemble: ["same"] });
    const e = ev(entries);
    expect(repairFeatures(e, ["shrink_model", "safe_config"], "timeout", "svm")).toEqual({ safe_config: ["give_up"] });
    expect(repairFeatures(e, ["safe_config", "swap_family"], "memory", "svm")).toEqual({
      swap_family: ["family_failing"],
    });
    expect(repairFeatures(e, ["safe_config", "swap_family"], "memory", "hist_gb")).toEqual({});
  });
});
