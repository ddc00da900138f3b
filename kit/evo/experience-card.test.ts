import { describe, expect, it } from "vitest";
import { buildCard, cardSummary, sandboxReward } from "./experience-card.js";
import { mkNode } from "./test-helpers/make-node.js";

const earlier = [
  mkNode({ nodeId: "n0", validScore: 0.6, methodFamily: "sklearn" }),
  mkNode({ nodeId: "n1", validScore: 0.8, methodFamily: "xgboost" }),
  mkNode({ nodeId: "n2", status: "runtime_error", errorSignature: "import_error", methodFamily: "sklearn", traceback: "Traceback\nImportError: no module x" }),
];

describe("buildCard", () => {
  it.each([
    // improve of n0 reaching 0.7: third sklearn card (2 earlier) → novelty 1/sqrt(3); scores 0.8, 0.7, 0.6:
    // B = 0.8, anchor 0.6, W = 0.6 − 0.25·0.2 = 0.55 → reward (0.7 − 0.55)/(0.8 − 0.55) = 0.6; rank 2.
    { node: mkNode({ nodeId: "n3", operator: "improve", parents: ["n0"], validScore: 0.7, methodFamily: "sklearn" }),
      want: { family_explored: 2, novelty: 1 / Math.sqrt(3), reward: 0.6, rank: 2, champion_at_write: false, delta_vs_parent: 0.1 } },
    // crossover of n0+n1 reaching 0.9: champion, reward 1, delta vs best parent 0.1; first ensemble card.
    { node: mkNode({ nodeId: "n3", operator: "crossover", parents: ["n0", "n1"], validScore: 0.9, methodFamily: "ensemble" }),
      want: { family_explored: 0, novelty: 1, reward: 1, rank: 1, champion_at_write: true, delta_vs_parent: 0.1 } },
    // a failed debug: reward 0, no rank, no delta.
    { node: mkNode({ nodeId: "n3", operator: "debug", parents: ["n2"], status: "timeout", errorSignature: "timeout", methodFamily: "xgboost" }),
      want: { family_explored: 1, novelty: 1 / Math.sqrt(2), reward: 0, rank: null, champion_at_write: false, delta_vs_parent: null } },
  ])("$node.operator → $want", ({ node, want }) => {
    const card = buildCard("r1", node, earlier, node.operator === "crossover" ? [0.4, 0.44] : [0.42], 0.7);
    const { delta_vs_parent, novelty, reward, ...rest } = want;
    expect(card.reward).toBeCloseTo(reward, 12);
    expect(card).toMatchObject(rest);
    expect(card.novelty).toBeCloseTo(novelty, 12);
    if (delta_vs_parent === null) expect(card.delta_vs_parent).toBeNull();
    else expect(card.delta_vs_parent).toBeCloseTo(delta_vs_parent, 12);
    expect(card.selection_utility).toBeCloseTo(0.42, 12); // the parents' utilities (mean for Crossover)
    expect(card.utility).toBe(0.7);
    expect(card.rich_summary).toBeNull();
    expect(card.parents).toEqual(node.parents);
  });

  it("the first scored node of a run gets reward 1 and is champion; analyses are deterministic text", () => {
    const c = buildCard("r", mkNode({ nodeId: "n0", validScore: 0.5 }), []);
    expect(c).toMatchObject({ reward: 1, rank: 1, champion_at_write: true, analysis: "success: validation 0.5000", selection_utility: null, lineage_depth: 0, generation_id: 0 });
    expect(buildCard("r", mkNode({ nodeId: "n9", generation: 3, lineageDepth: 7 }), []).generation_id).toBe(3);
    expect(buildCard("r", mkNode({ nodeId: "n9", generation: 3, lineageDepth: 7 }), []).lineage_depth).toBe(7);
    const f = buildCard("r", earlier[2]!, earlier.slice(0, 2));
    expect(f.analysis).toBe("runtime_error [import_error]: ImportError: no module x");
    expect(cardSummary(f)).toBe("n2 draft [sklearn] plan of n2 → runtime_error [import_error]: ImportError: no module x");
  });
});

describe("sandboxReward (adaptive bounds of the reference code)", () => {
  const desc = Array.from({ length: 20 }, (_, i) => 1 - 0.05 * i); // 1.00, 0.95, …, 0.05
  it.each([
    { f: null, earlier: [0.5], want: 0 }, // failure
    { f: Number.NaN, earlier: [], want: 0 }, // non-finite
    { f: 0.3, earlier: [], want: 1 }, // the only finite score
    { f: 0.5, earlier: [0.5], want: 0 }, // B = W → B = W + 1e-6: a score at W gets 0
    { f: 0.9, earlier: [1.0, 0.5], want: (0.9 - 0.375) / (1 - 0.375) }, // anchor = lowest (K < 16): W = 0.5 − 0.25·0.5
    // K = 21 (0.6 twice): x(1) = 1.0, x(16) = 0.30, W = 0.30 − 0.25·0.70 = 0.125.
    { f: 0.6, earlier: desc, want: (0.6 - 0.125) / (1 - 0.125) },
    { f: 0.01, earlier: desc, want: 0 }, // below W → 0
    { f: 2, earlier: desc, want: 1 }, // a new best → 1
  ])("$f after $earlier.length scores → $want", ({ f, earlier, want }) => expect(sandboxReward(f, earlier)).toBeCloseTo(want, 9));
});
