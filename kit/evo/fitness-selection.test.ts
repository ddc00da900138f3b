import { describe, expect, it } from "vitest";
import { EvolveConfig } from "./config.js";
import { parentProbabilities } from "./evo-step.js";
import { fitnessSoftmax, globalNormalisedFitness } from "./fitness-selection.js";
import { mkNode } from "./test-helpers/make-node.js";

// Issue 14 point 6: AIRA-Evo normalises fitness by the global min/max of all scored nodes (clipped).
describe("AIRA-Evo fitness", () => {
  it.each([
    { f: 0.5, lo: 0.1, hi: 0.9, want: 0.5 },
    { f: -2, lo: -5, hi: -1, want: 0.75 }, // RMSE 2 among RMSEs 1…5 (signed fitness)
    { f: 1.2, lo: 0, hi: 1, want: 1 }, // clipped
    { f: -0.5, lo: 0, hi: 1, want: 0 },
    { f: 0.7, lo: 0.7, hi: 0.7, want: 0.5 }, // one score
    { f: null, lo: 0, hi: 1, want: 0 }, // no score
  ])("f̃ of $f in [$lo, $hi] = $want", ({ f, lo, hi, want }) => expect(globalNormalisedFitness(f, lo, hi)).toBeCloseTo(want, 12));

  it("softmax over the island members of the globally normalised fitness", () => {
    // Members 0.5 and 0.7 among scored nodes 0.1 … 0.9: f̃ = 0.5 and 0.75 (island-only min-max would give 0 and 1).
    const p = fitnessSoftmax([0.5, 0.7], [0.1, 0.5, 0.7, 0.9]);
    expect(p[0]).toBeCloseTo(1 / (1 + Math.exp(0.25)), 12); // 0.43782
    expect(p[1]).toBeCloseTo(1 / (1 + Math.exp(-0.25)), 12);
    expect(fitnessSoftmax([0.5, 0.7], [0.1, 0.5, 0.7, 0.9], 0.5)[0]).toBeCloseTo(1 / (1 + Math.exp(0.5)), 12);
  });

  it("parentProbabilities (aira-evo) takes the range over every scored node of the run, not the island", () => {
    const members = [mkNode({ nodeId: "n1", validScore: 0.5 }), mkNode({ nodeId: "n2", validScore: 0.7 })];
    const all = [mkNode({ nodeId: "n0", validScore: 0.1, admitted: false }), ...members, mkNode({ nodeId: "n3", validScore: 0.9, island: 1 }), mkNode({ nodeId: "n4", status: "runtime_error" })];
    const p = parentProbabilities(members, all, EvolveConfig.parse({ harness: "aira-evo" }));
    expect(p[0]!.utility).toBeCloseTo(0.5, 12);
    expect(p[1]!.utility).toBeCloseTo(0.75, 12);
    expect(p[0]!.probability).toBeCloseTo(1 / (1 + Math.exp(0.25)), 12);
  });
});
