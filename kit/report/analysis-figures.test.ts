import { describe, expect, it } from "vitest";
import { runStats, type TrajectoryRun } from "../eval/index.js";
import { analysisFigures, analysisFigureSet, bestScoreCurveFigure, gainShareFigure, lineageFigure, operatorStatsFigure } from "./analysis-figures.js";
import { transferScatterFigure } from "./transfer-figure.js";

// Lower is better: draft 4 → improve 3.5 (+0.5, early) → failed debug → crossover 3.25 (+0.25, late from step 2 of 4).
const run: TrajectoryRun = {
  run_id: "r1", task_id: "t", harness: "openmle", higher_is_better: false, step_budget: 4, champion_node_id: "n0003",
  nodes: [
    { node_id: "n0000", step: 0, operator: "draft", parents: [], status: "success", valid_score: 4 },
    { node_id: "n0001", step: 1, operator: "improve", parents: ["n0000"], status: "success", valid_score: 3.5 },
    { node_id: "n0002", step: 2, operator: "debug", parents: ["n0001"], status: "runtime_error", valid_score: null },
    { node_id: "n0003", step: 3, operator: "crossover", parents: ["n0001", "n0000"], status: "success", valid_score: 3.25 },
  ],
};
const s = runStats(run);

// The same run with hidden test scores: the champion n0003 is best on validation, n0001 best on the test.
const tested = runStats({ ...run, nodes: run.nodes.map((n, i) => ({ ...n, test_score: [4.2, 3.4, null, 3.6][i] ?? null })) });

describe("analysis figures", () => {
  it("validation vs hidden test: one point per node with both scores, the champion ringed, the best draft boxed", () => {
    expect(analysisFigureSet([s]).omitted.map((o) => o.id)).toContain("validation-test-transfer");
    expect(analysisFigures([tested]).map((f) => f.id)).toContain("validation-test-transfer");
    const [points, champion, draft, diagonal] = transferScatterFigure([tested]).data;
    expect(points).toMatchObject({ x: [4, 3.5, 3.25], y: [4.2, 3.4, 3.6], name: "openmle · r1 (ρ 0.50)" });
    expect(champion).toMatchObject({ x: [3.25], y: [3.6], marker: { symbol: "circle", color: "rgba(0,0,0,0)" } });
    expect(draft).toMatchObject({ x: [4], y: [4.2], marker: { symbol: "square", color: "rgba(0,0,0,0)" } });
    expect(diagonal).toMatchObject({ x: [3.25, 4.2], y: [3.25, 4.2] });
  });

  it("one figure each: operator stats, best-score curve, lineage, gain share", () => {
    expect(analysisFigures([s]).map((f) => f.id)).toEqual(["operator-stats", "best-score-curve", "champion-lineage", "gain-share-phase"]);
    expect(analysisFigures([])).toEqual([]);
  });
  it("operator bars: beat-parent rate left, mean gain right; drafts without a bar", () => {
    const [rate, gain] = operatorStatsFigure([s]).data;
    expect(rate!.x).toEqual(["draft", "improve", "debug", "crossover"]);
    expect(rate!.y).toEqual([null, 1, 0, 1]);
    expect(gain).toMatchObject({ xaxis: "x2", yaxis: "y2", y: [null, 0.5, null, 0.25] });
  });
  it("curve: the best so far over steps, markers at the records", () => {
    const [line, marks] = bestScoreCurveFigure([s]).data;
    expect(line).toMatchObject({ x: [0, 1, 2, 3], y: [4, 3.5, 3.5, 3.25] });
    expect(marks).toMatchObject({ x: [0, 1, 3], y: [4, 3.5, 3.25] });
    expect(bestScoreCurveFigure([s]).layout!.yaxis).toMatchObject({ title: { text: "best validation score (lower is better)" } });
  });
  it("lineage: draft → improve → crossover with operator initials", () => {
    expect(lineageFigure([s]).data[0]).toMatchObject({ x: [0, 1, 3], y: [4, 3.5, 3.25], text: ["D", "I", "C"] });
  });
  it("gain share: improve early 2/3, crossover late 1/3, stacked per run", () => {
    const d = gainShareFigure([s]).data;
    expect(d.map((t) => t.name)).toEqual(["improve, early", "crossover, late"]);
    expect(d[0]!.y).toEqual([0.5 / 0.75]);
    expect(d[1]!.y).toEqual([0.25 / 0.75]);
  });
});
