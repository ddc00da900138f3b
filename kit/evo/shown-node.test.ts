import { describe, expect, it } from "vitest";
import type { ModelFamily, SolutionSpec } from "../policy/grammar/spec.js";
import type { Operator } from "../policy/types.js";
import { gainOverParents, shownNode } from "./shown-node.js";
import { mkNode } from "./test-helpers/make-node.js";

const spec = (models: ModelFamily[], scale: "none" | "standard" = "none"): SolutionSpec => ({
  version: 1, modality: "tabular", taskType: "classification",
  features: {
    kind: "tabular", numericImpute: "median", missingIndicators: false, scale, categorical: "onehot", maxCategories: 20,
    interactions: "none",
  },
  models: models.map((family) => ({ family, params: {} })), ensemble: models.length > 1 ? "average" : "none",
  validation: { scheme: "holdout", folds: 5, holdoutFrac: 0.2 }, maxTrainRows: null, writer: "sample", seed: 0,
});

// p0 0.6 (grammar, linear), p1 0.8 (no spec), p2 fails, p3 succeeds without a score.
const P = [
  mkNode({ nodeId: "p0", validScore: 0.6, spec: spec(["linear"]) }),
  mkNode({ nodeId: "p1", validScore: 0.8 }),
  mkNode({ nodeId: "p2", status: "runtime_error", errorSignature: "import_error" }),
  mkNode({ nodeId: "p3", validScore: null }),
];
const byId = new Map(P.map((n) => [n.nodeId, n]));
const child = (nodeId: string, operator: Operator, parents: string[], validScore: number | null, sp?: SolutionSpec) =>
  mkNode({ nodeId, operator, parents, validScore, spec: sp, ...(validScore === null ? { status: "timeout" } : {}) });

describe("shownNode", () => {
  it.each([
    // A draft: no parent, so no gain; its change is unknown; models from its spec, in order.
    { n: child("d", "draft", [], 0.5, spec(["xgboost", "linear"])), gain: null, change: null,
      models: ["xgboost", "linear"] },
    // Improve p0 → 0.7, same features, another model: gain 0.7 − 0.6 = 0.1, change model.
    { n: child("i", "improve", ["p0"], 0.7, spec(["hist_gb"])), gain: 0.1, change: "model", models: ["hist_gb"] },
    // Improve p0 → 0.55, same model, scaled features: gain 0.55 − 0.6 = −0.05, change features.
    { n: child("f", "improve", ["p0"], 0.55, spec(["linear"], "standard")), gain: -0.05, change: "features",
      models: ["linear"] },
    // The parent's spec again: gain 0, change none.
    { n: child("s", "improve", ["p0"], 0.6, spec(["linear"])), gain: 0, change: "none", models: ["linear"] },
    // Crossover p0+p1 → 0.9: gain over the best parent 0.9 − 0.8 = 0.1; the change is against the first parent.
    { n: child("x", "crossover", ["p0", "p1"], 0.9, spec(["linear"])), gain: 0.1, change: "none", models: ["linear"] },
    // Crossover p1+p0: the first parent has no spec → change unknown.
    { n: child("y", "crossover", ["p1", "p0"], 0.9, spec(["linear"])), gain: 0.1, change: null, models: ["linear"] },
    // A failed child has no gain, but its change is known.
    { n: child("e", "improve", ["p0"], null, spec(["svm"])), gain: null, change: "model", models: ["svm"] },
    // Debug of a failure (parent without fitness): no gain; no spec → models [].
    { n: child("g", "debug", ["p2"], 0.4), gain: null, change: null, models: [] },
    // The parent succeeded without a score: no gain.
    { n: child("h", "improve", ["p3"], 0.4), gain: null, change: null, models: [] },
  ])("$n.nodeId: gain $gain, change $change", ({ n, gain, change, models }) => {
    const s = shownNode(n, "ancestor", `- ${n.nodeId}`, byId);
    if (gain === null) expect(s.gain).toBeNull();
    else expect(s.gain).toBeCloseTo(gain, 12);
    expect(gainOverParents(n, byId)).toBe(s.gain);
    expect({ change: s.change, models: s.models }).toEqual({ change, models });
  });

  it("copies the node's facts, the role, the idea (first plan line) and the text", () => {
    const n = mkNode({
      nodeId: "n7", operator: "improve", parents: ["p1"], plan: "try ridge\nthen more", status: "runtime_error",
      errorSignature: "key_error", methodFamily: "xgboost",
    });
    expect(shownNode(n, "sibling", "  sibling n7", byId)).toEqual({
      nodeId: "n7", operator: "improve", role: "sibling", methodFamily: "xgboost", models: [], status: "runtime_error",
      validScore: null, errorSignature: "key_error", gain: null, change: null, idea: "try ridge", text: "  sibling n7",
    });
  });
});
