import { describe, expect, it } from "vitest";
import { averageRanks, spearman, validationTransfer, type TransferNode } from "./validation-transfer.js";

const node = (id: string, operator: string, valid: number | null, test: number | null, code?: string): TransferNode => ({
  node_id: id, operator, status: valid === null ? "runtime_error" : "success", valid_score: valid, test_score: test, code,
});
// RMSE (lower is better, s = −1): the champion n2 is best on validation, n3 best on the test.
const rmse = [
  node("n0", "draft", 3.0, 3.1, 'VALIDATION, FOLDS, HOLDOUT_FRAC = "kfold", 3, 0.2'),
  node("n1", "draft", 2.9, 2.7, 'VALIDATION, FOLDS, HOLDOUT_FRAC = "kfold", 3, 0.2'),
  node("n2", "improve", 2.5, 2.9, 'VALIDATION, FOLDS, HOLDOUT_FRAC = "holdout", 3, 0.2'),
  node("n3", "improve", 2.6, 2.6),
  node("n4", "debug", null, null),
];

describe("validationTransfer (hand-computed)", () => {
  it("gain over the best draft, regret against the best node on the test, optimism, Spearman ρ, schemes", () => {
    const t = validationTransfer(rmse, false);
    expect(t.champion_vs_draft.champion?.nodeId).toBe("n2");
    expect(t.champion_vs_draft.bestDraft?.nodeId).toBe("n1");
    expect(t.champion_vs_draft.testGain).toBeCloseTo(-0.2, 12); // −(2.9 − 2.7)
    expect(t.best_on_test).toEqual({ node_id: "n3", operator: "improve", test: 2.6 });
    expect(t.regret).toBeCloseTo(0.3, 12); // −(2.6 − 2.9)
    expect(t.optimism).toBeCloseTo(0.075, 12); // (0.1 − 0.2 + 0.4 + 0) / 4
    expect(t.spearman).toBeCloseTo(0.4, 12); // ranks [4,3,1,2] vs [4,2,3,1]: 1 − 6·6 / (4·15)
    expect(t.points.map((p) => p.node_id)).toEqual(["n0", "n1", "n2", "n3"]);
    expect(t.champion_scheme?.label).toBe("20 % holdout");
    expect(t.best_draft_scheme?.label).toBe("3-fold CV");
    expect(t.points[3]!.scheme.kind).toBe("unknown");
  });

  it("the run's own champion is used when named; higher-is-better flips every sign", () => {
    const acc = [node("a", "draft", 0.8, 0.7), node("b", "improve", 0.9, 0.75), node("c", "improve", 0.85, 0.8)];
    const t = validationTransfer(acc, true, "c");
    expect(t.champion_vs_draft.champion?.nodeId).toBe("c");
    expect(t.regret).toBe(0);
    expect(t.champion_vs_draft.testGain).toBeCloseTo(0.1, 12);
    expect(t.optimism).toBeCloseTo((0.1 + 0.15 + 0.05) / 3, 12);
    expect(t.spearman).toBeCloseTo(0.5, 12); // ranks [1,3,2] vs [1,2,3]: 1 − 6·2 / (3·8)
  });

  it("no node with both scores: nulls, no points", () => {
    const t = validationTransfer([node("a", "draft", 0.8, null), node("b", "debug", null, null)], true);
    expect(t).toMatchObject({ best_on_test: null, regret: null, optimism: null, spearman: null, points: [] });
    expect(t.champion_vs_draft.state).toBe("no-gain");
  });
});

describe("averageRanks and spearman", () => {
  it.each([
    [[1, 2, 2, 3], [1, 2.5, 2.5, 4]],
    [[5, 1, 3], [3, 1, 2]],
    [[7, 7, 7], [2, 2, 2]],
  ])("ranks of %j are %j", (xs, ranks) => expect(averageRanks(xs)).toEqual(ranks));

  it.each([
    [[1, 2, 3, 4], [10, 20, 30, 40], 1],
    [[1, 2, 3, 4], [4, 3, 2, 1], -1],
    [[1, 2, 3], [5, 5, 5], null],
    [[1, 2], [1, 2], null],
  ])("ρ(%j, %j) = %s", (a, b, rho) => {
    const r = spearman(a, b);
    if (rho === null) expect(r).toBeNull();
    else expect(r).toBeCloseTo(rho, 12);
  });
});
