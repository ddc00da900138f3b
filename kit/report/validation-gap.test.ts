import { describe, expect, it } from "vitest";
import { championVsDraft, validationTransfer } from "../eval/index.js";
import { resultHtml, resultRow, transferText, type RunResult } from "./result-section.js";
import { validationGap } from "./validation-gap.js";

// [case, valid, test, higher is better, baselines, threshold, gap, relative, scale, large] — hand-computed.
const CASES: [string, number, number, boolean, { trivial: number; reference: number } | undefined, number | undefined, number, number, string, boolean][] = [
  ["macro-F1 0.728 → 0.430 (issue 14's seattle-weather champion)", 0.728, 0.43, true, undefined, undefined, 0.298, 0.298 / 0.728, "scores", true],
  ["RMSE 2.0 → 2.5: validation optimistic", 2.0, 2.5, false, undefined, undefined, 0.5, 0.2, "scores", true],
  ["RMSE 2.5 → 2.0: the test came out better (never flagged)", 2.5, 2.0, false, undefined, undefined, -0.5, -0.2, "scores", false],
  ["accuracy 0.95 → 0.93: small", 0.95, 0.93, true, undefined, undefined, 0.02, 0.02 / 0.95, "scores", false],
  ["1.1 → 1.0 just under 10%", 1.1, 1.0, true, undefined, undefined, 0.1, 0.1 / 1.1, "scores", false],
  ["accuracy 0.9 → 0.8 in trivial → reference units (0.1 → 0.786)", 0.9, 0.8, true, { trivial: 0.1, reference: 0.786 }, undefined, 0.1, 0.1 / 0.686, "baselines", true],
  ["MAE 40 → 44 in baseline units (65.40 → 41.77)", 40, 44, false, { trivial: 65.4, reference: 41.77 }, undefined, 4, 4 / 23.63, "baselines", true],
  ["the same with threshold 0.2", 40, 44, false, { trivial: 65.4, reference: 41.77 }, 0.2, 4, 4 / 23.63, "baselines", false],
];

describe("validationGap", () => {
  it.each(CASES)("%s", (_, valid, test, hib, baselines, threshold, gap, relative, scale, large) => {
    const g = validationGap(valid, test, hib, { baselines, config: threshold === undefined ? {} : { threshold } })!;
    expect(g.gap).toBeCloseTo(gap, 12);
    expect(g.relative).toBeCloseTo(relative, 12);
    expect([g.scale, g.large]).toEqual([scale, large]);
  });

  it("is null without both scores or with a zero scale; rejects a non-positive threshold", () => {
    expect(validationGap(0.8, null, true)).toBeNull();
    expect(validationGap(Number.NaN, 0.8, true)).toBeNull();
    expect(validationGap(0, 0, false)).toBeNull();
    expect(() => validationGap(1, 0.5, true, { config: { threshold: 0 } })).toThrow();
  });

  it("the run's result block and runs-table row flag a large gap", () => {
    const r: RunResult = {
      runId: "run-1", task: "Seattle daily weather type (seattle-weather)", metric: "macro_f1, higher is better", harness: "openmle", policy: "grammar",
      champion: null, validScore: 0.728, testScore: 0.43, validationGap: validationGap(0.728, 0.43, true), grade: null, humanRank: null,
      nodeValidRate: 1, nodesScored: 40, nodes: 40, submissionValid: true, bestDraft: 0.6, vsDraft: championVsDraft([], true), transfer: validationTransfer([], true), stepBudget: 40, sandboxS: 100, wallS: null, tokens: 0, throughput: null,
    };
    expect(resultHtml(r, { status: "done" })).toContain("⚠ +0.298 (41% of the scores; large): validation promised more than the hidden test gave");
    expect(resultRow(r)["val – test gap"]).toBe("+0.298 (41% of the scores; large)");
    expect(resultHtml(r, { status: "done" })).toContain("no node has both a validation and a hidden test score");
    const t = validationTransfer([
      { node_id: "n0", operator: "draft", status: "success", valid_score: 0.6, test_score: 0.5, code: 'VALIDATION, FOLDS, HOLDOUT_FRAC = "kfold", 3, 0.2' },
      { node_id: "n1", operator: "improve", status: "success", valid_score: 0.728, test_score: 0.43, code: 'VALIDATION, FOLDS, HOLDOUT_FRAC = "holdout", 3, 0.2' },
    ], true);
    expect(transferText(t)).toBe("champion validated by 20 % holdout, best draft by 3-fold CV · best node on the hidden test n0 0.5 (the champion leaves 0.07)");
    const small = { ...r, testScore: 0.72, validationGap: validationGap(0.728, 0.72, true) };
    expect(resultHtml(small, { status: "done" })).not.toContain("⚠");
  });
});
