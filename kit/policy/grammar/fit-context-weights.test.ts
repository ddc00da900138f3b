import { describe, expect, it } from "vitest";
import { fitContextWeights, weightsTable, type LabelledOutcome } from "./fit-context-weights.js";

const pick = (value: string, outcome: number, of: Record<string, string[]>): LabelledOutcome => ({
  choice: { name: "draft.tabular.model", value, logProb: 0, options: ["svm", "hist_gb", "linear"], optionFeatures: of },
  outcome,
});
const failedSvm = { svm: ["failed2"] };

describe("fitContextWeights", () => {
  it("the log ratio of mean outcomes, shrunk by support and clipped", () => {
    // 5 choices of svm (the failed2 option) with outcome 0.2, 5 of others with 0.6
    const s = [
      ...Array.from({ length: 5 }, () => pick("svm", 0.2, failedSvm)),
      ...Array.from({ length: 5 }, (_, i) => pick(i % 2 ? "hist_gb" : "linear", 0.6, failedSvm)),
    ];
    const [f] = fitContextWeights(s);
    // 5/15 · ln(0.25/0.65) = −0.318500...
    expect(f).toMatchObject({ key: "draft.model", label: "failed2", nWith: 5, nWithout: 5, meanWith: 0.2 });
    expect(f!.weight).toBeCloseTo((5 / 15) * Math.log(0.25 / 0.65), 12);
    expect(weightsTable([f!])).toEqual({ "draft.model": { failed2: -0.319 } });
    expect(fitContextWeights(s, { prior: 0, cap: 0.5 })[0]!.weight).toBe(-0.5);
  });

  it("too little support on either side gives 0; labels on every option or none say nothing", () => {
    const few = [pick("svm", 0, failedSvm), ...Array.from({ length: 6 }, () => pick("linear", 1, failedSvm))];
    expect(fitContextWeights(few)[0]!.weight).toBe(0);
    const all = { svm: ["x"], hist_gb: ["x"], linear: ["x"] };
    expect(fitContextWeights(Array.from({ length: 12 }, () => pick("svm", 1, all)))).toEqual([]);
    expect(weightsTable(fitContextWeights(few))).toEqual({});
  });
});
