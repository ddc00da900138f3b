import { describe, expect, it } from "vitest";
import { buildCard, cardSummary } from "./experience-card.js";
import { mkNode } from "./test-helpers/make-node.js";

const earlier = [
  mkNode({ nodeId: "n0", validScore: 0.6, methodFamily: "sklearn" }),
  mkNode({ nodeId: "n1", validScore: 0.8, methodFamily: "xgboost" }),
  mkNode({ nodeId: "n2", status: "runtime_error", errorSignature: "import_error", methodFamily: "sklearn", traceback: "Traceback\nImportError: no module x" }),
];

describe("buildCard", () => {
  it.each([
    // improve of n0 reaching 0.7: third sklearn card (2 earlier) → novelty 1/sqrt(3); reward (0.7-0.6)/(0.8-0.6) = 0.5; rank 2.
    { node: mkNode({ nodeId: "n3", operator: "improve", parents: ["n0"], validScore: 0.7, methodFamily: "sklearn" }),
      want: { family_explored: 2, novelty: 1 / Math.sqrt(3), reward: 0.5, rank: 2, is_champion: false, delta_vs_parent: 0.1 } },
    // crossover of n0+n1 reaching 0.9: champion, reward 1, delta vs best parent 0.1; first ensemble card.
    { node: mkNode({ nodeId: "n3", operator: "crossover", parents: ["n0", "n1"], validScore: 0.9, methodFamily: "ensemble" }),
      want: { family_explored: 0, novelty: 1, reward: 1, rank: 1, is_champion: true, delta_vs_parent: 0.1 } },
    // a failed debug: reward 0, no rank, no delta.
    { node: mkNode({ nodeId: "n3", operator: "debug", parents: ["n2"], status: "timeout", errorSignature: "timeout", methodFamily: "xgboost" }),
      want: { family_explored: 1, novelty: 1 / Math.sqrt(2), reward: 0, rank: null, is_champion: false, delta_vs_parent: null } },
  ])("$node.operator → $want", ({ node, want }) => {
    const card = buildCard("r1", node, earlier, 0.42);
    const { delta_vs_parent, novelty, reward, ...rest } = want;
    expect(card.reward).toBeCloseTo(reward, 12);
    expect(card).toMatchObject(rest);
    expect(card.novelty).toBeCloseTo(novelty, 12);
    if (delta_vs_parent === null) expect(card.delta_vs_parent).toBeNull();
    else expect(card.delta_vs_parent).toBeCloseTo(delta_vs_parent, 12);
    expect(card.selection_utility).toBe(0.42);
    expect(card.rich_summary).toBeNull();
    expect(card.parents).toEqual(node.parents);
  });

  it("the first scored node of a run gets reward 1 and is champion; analyses are deterministic text", () => {
    const c = buildCard("r", mkNode({ nodeId: "n0", validScore: 0.5 }), []);
    expect(c).toMatchObject({ reward: 1, rank: 1, is_champion: true, analysis: "success: validation 0.5000" });
    const f = buildCard("r", earlier[2]!, earlier.slice(0, 2));
    expect(f.analysis).toBe("runtime_error [import_error]: ImportError: no module x");
    expect(cardSummary(f)).toBe("n2 draft [sklearn] plan of n2 → runtime_error [import_error]: ImportError: no module x");
  });
});
