import { describe, expect, it } from "vitest";
import { experimentById } from "./catalogue.js";
import { layoutFigure } from "./layout-figures.js";
import type { CellResult } from "./run-search.js";

const cell = (arm: string, task: string, modality: string, repeat: number, normalized: number | null, opts: Partial<CellResult> = {}): CellResult => ({
  arm, task, repeat, modality, runId: `${arm}-${task}-r${repeat}`, cached: true, validRate: 1,
  testScore: normalized === null ? null : 0.5, normalized, normalisable: true, reference: 1, higherIsBetter: true, grade: null, humanRank: null, ...opts,
});
const MFH = experimentById("model-fixed-harness");
// cell-layouts.test.ts' cells: tabular uniform 0.625 ± 0.375, trained 1 ± 0; text not normalisable.
const CELLS = [
  cell("uniform", "t1", "tabular", 1, 0.5), cell("uniform", "t2", "tabular", 1, 1.5),
  cell("uniform", "t1", "tabular", 2, 0.5), cell("uniform", "t2", "tabular", 2, -0.5),
  cell("trained", "t1", "tabular", 1, 1), cell("trained", "t2", "tabular", 1, 1),
  cell("trained", "t1", "tabular", 2, null), cell("trained", "t2", "tabular", 2, 2),
  ...[1, 2].flatMap((r) => ["uniform", "trained"].map((a) => cell(a, "t3", "text", r, null, { normalisable: false, testScore: 3 }))),
];
type Bars = { name: string; x: string[]; y: (number | null)[]; error_y?: { array: number[] }; customdata?: number[] };

describe("layoutFigure", () => {
  it("modality: one bar per arm per modality with a normalisable task (mean ± std over repeats)", () => {
    const fig = layoutFigure(experimentById("modality"), MFH, "smoke", CELLS)!;
    const bars = fig.data as Bars[];
    expect(bars.map((b) => b.x)).toEqual([["tabular (2 of 2 tasks)"], ["tabular (2 of 2 tasks)"]]);
    expect(bars.map((b) => b.y)).toEqual([[0.625], [1]]);
    expect(bars.map((b) => b.error_y!.array)).toEqual([[0.375], [0]]);
  });

  it("solution ceiling: one stacked segment per grade, the arm's mean share in %", () => {
    const fig = layoutFigure(experimentById("solution-ceiling"), MFH, "smoke", CELLS)!;
    const segs = fig.data as Bars[];
    expect(segs.map((s) => s.name.split(" (")[0])).toEqual(["at or above the reference", "between trivial and reference", "at or below trivial", "no champion"]);
    // uniform: 25 / 50 / 25 / 0; trained 75 / 0 / 0 / 25 (cell-layouts.test.ts' hand-computed shares)
    expect(segs.map((s) => s.y)).toEqual([[25, 75], [50, 0], [25, 0], [0, 25]]);
    expect(segs[0]!.customdata).toEqual([25, 25]);
    expect(segs[0]!.x[0]).toContain("<br>(4 runs)");
    expect(fig.layout!.barmode).toBe("stack");
  });

  it("no figure for search efficiency, nor without graded or normalisable cells", () => {
    expect(layoutFigure(experimentById("search-efficiency"), experimentById("harness-fixed-model"), "smoke", CELLS)).toBeNull();
    const text = CELLS.filter((c) => c.modality === "text");
    expect(layoutFigure(experimentById("modality"), MFH, "smoke", text)).toBeNull();
    expect(layoutFigure(experimentById("solution-ceiling"), MFH, "smoke", text)).toBeNull();
  });
});
