import { describe, expect, it } from "vitest";
import { experimentById } from "./catalogue.js";
import { ceilingGrade, ceilingTable, modalityTable } from "./cell-layouts.js";
import { layoutFigure } from "./layout-figures.js";
import type { CellResult } from "./run-search.js";

const cell = (arm: string, task: string, modality: string, repeat: number, normalized: number | null, opts: Partial<CellResult> = {}): CellResult => ({
  arm, task, repeat, modality, runId: `${arm}-${task}-r${repeat}`, cached: true, validRate: 1,
  testScore: normalized === null ? null : 0.5, normalized, normalisable: true, reference: 1, higherIsBetter: true, grade: null, humanRank: null, ...opts,
});
const MFH = experimentById("model-fixed-harness");

describe("ceilingGrade", () => {
  it.each([
    ["n = 1 reaches the reference", { normalisable: true, testScore: 0.9, normalized: 1 }, "reference"],
    ["n = 2.5", { normalisable: true, testScore: 0.9, normalized: 2.5 }, "reference"],
    ["n = 0.999", { normalisable: true, testScore: 0.9, normalized: 0.999 }, "between"],
    ["n = 0 is trivial", { normalisable: true, testScore: 0.9, normalized: 0 }, "trivial"],
    ["n = −0.4", { normalisable: true, testScore: 0.9, normalized: -0.4 }, "trivial"],
    ["no champion", { normalisable: true, testScore: null, normalized: null }, "none"],
    ["a task that cannot be normalised", { normalisable: false, testScore: 0.9, normalized: null }, null],
  ] as const)("%s", (_name, c, grade) => expect(ceilingGrade(c)).toBe(grade));
});

// Two arms of the smoke preset (uniform, trained), two repeats. Hand-computed:
//   tabular: t1, t2 normalisable. uniform r1 (0.5 + 1.5)/2 = 1.0, r2 (0.5 + credit(−0.5) = 0)/2 = 0.25 →
//   0.625 ± 0.375; trained r1 (1 + 1)/2 = 1, r2 (no champion 0 + 2)/2 = 1 → 1.000 ± 0.000.
//   text: t3 not normalisable → "–"; its count still shows.
const CELLS = [
  cell("uniform", "t1", "tabular", 1, 0.5), cell("uniform", "t2", "tabular", 1, 1.5),
  cell("uniform", "t1", "tabular", 2, 0.5), cell("uniform", "t2", "tabular", 2, -0.5),
  cell("trained", "t1", "tabular", 1, 1), cell("trained", "t2", "tabular", 1, 1),
  cell("trained", "t1", "tabular", 2, null), cell("trained", "t2", "tabular", 2, 2),
  ...[1, 2].flatMap((r) => ["uniform", "trained"].map((a) => cell(a, "t3", "text", r, null, { normalisable: false, testScore: 3 }))),
];

describe("modalityTable", () => {
  it("per modality and arm: mean credit over its normalisable tasks, mean ± population std over repeats", () => {
    const rows = modalityTable(experimentById("modality"), MFH, "smoke", CELLS);
    expect(rows.slice(0, 2)).toEqual([
      { source: "kit (smoke), exploratory", row: "tabular", values: { tasks: "2 (2 normalisable)", uniform: "0.625 ± 0.375", trained: "1.000 ± 0.000" } },
      { source: "kit (smoke), exploratory", row: "text", values: { tasks: "1 (0 normalisable)", uniform: "–", trained: "–" } },
    ]);
    expect(rows.slice(2).every((r) => r.source === "paper (reference)")).toBe(true);
  });
});

describe("modalityTable on leaderboards (the laptop preset once the corpus leaderboards are built)", () => {
  // tabular t1, t2 graded; uniform r1: gold + none → 50 %, r2: none + none → 0 % → 25 ± 25 %; trained r1 silver +
  // bronze → 100 %, r2 gold + none → 50 % → 75 ± 25 %. Normalised as CELLS (t2 of trained with a weak reference).
  const grades = { uniform: ["gold", "none", "none", "none"], trained: ["silver", "bronze", "gold", "none"] } as const;
  const graded = CELLS.filter((c) => c.modality === "tabular").map((c) => ({
    ...c, grade: grades[c.arm as "uniform" | "trained"][(c.repeat - 1) * 2 + (c.task === "t1" ? 0 : 1)]!,
    humanRank: 0.5, weakReference: c.task === "t2" && c.arm === "trained",
  }));
  it("medal rate per arm leads, then the normalised score with weak references marked", () => {
    const [tabular] = modalityTable(experimentById("modality"), MFH, "smoke", graded);
    expect(Object.keys(tabular!.values)).toEqual(["tasks", "uniform: medal rate", "trained: medal rate", "uniform: normalised", "trained: normalised"]);
    expect(tabular!.values).toEqual({
      tasks: "2 (2 on a leaderboard, 2 normalisable)", "uniform: medal rate": "25 ± 25 %", "trained: medal rate": "75 ± 25 %",
      "uniform: normalised": "0.625 ± 0.375", "trained: normalised": "1.000 ± 0.000 * (1 weak)",
    });
  });
  it("its figure plots the medal rate, titled and labelled as such", () => {
    const fig = layoutFigure(experimentById("modality"), MFH, "laptop", graded.map((c) => ({ ...c, arm: c.arm === "uniform" ? "uniform" : "g1" })))!;
    expect((fig.data as Bars[]).map((b) => [b.name, b.y])).toEqual([
      ["uniform (stand-in for a base model)", [25]], ["default (hand-set parameters)", [null]], ["loop generation 1", [75]], ["loop generation 2", [null]],
    ]);
    expect(fig.layout!.title).toBe("Per-modality medal rate, base → trained (laptop preset): medal rate per modality");
    expect(JSON.stringify(fig.layout!.yaxis)).toContain("kit reference-zoo leaderboards, not the paper's");
  });
});

describe("ceilingTable", () => {
  it("per grade and arm: share of the graded runs of each repeat, mean ± population std, then the counts", () => {
    // uniform r1: between, reference → 50/50; r2: between, trivial → between 50 %, trivial 50 %
    //   reference 25 ± 25, between 50 ± 0, trivial 25 ± 25, none 0 ± 0
    // trained r1: reference ×2; r2: none, reference → reference 75 ± 25, none 25 ± 25
    const rows = ceilingTable(experimentById("solution-ceiling"), MFH, "smoke", CELLS);
    expect(rows.slice(0, 5).map((r) => [r.row.split(" (")[0], r.values])).toEqual([
      ["at or above the reference", { uniform: "25 ± 25 %", trained: "75 ± 25 %" }],
      ["between trivial and reference", { uniform: "50 ± 0 %", trained: "0 ± 0 %" }],
      ["at or below trivial", { uniform: "25 ± 25 %", trained: "0 ± 0 %" }],
      ["no champion", { uniform: "0 ± 0 %", trained: "25 ± 25 %" }],
      ["graded runs", { uniform: "4", trained: "4" }],
    ]);
    expect(rows.at(-1)!.source).toBe("paper (reference)");
  });
});

describe("ceilingTable on leaderboards", () => {
  it("splits graded cells by medal when every cell has a leaderboard grade", () => {
    const m = (arm: string, repeat: number, grade: "gold" | "silver" | "bronze" | "none") => cell(arm, `t${grade}`, "image", repeat, null, { grade, humanRank: 0.5, normalisable: false });
    // uniform r1: gold, none → gold 50, none 50; r2: none, none → none 100 → gold 25 ± 25, none 75 ± 25
    const cells = [m("uniform", 1, "gold"), m("uniform", 1, "none"), m("uniform", 2, "none"), m("uniform", 2, "none"), m("trained", 1, "silver"), m("trained", 2, "bronze")];
    const rows = ceilingTable(experimentById("solution-ceiling"), MFH, "smoke", cells);
    expect(rows.slice(0, 5).map((r) => [r.row, r.values])).toEqual([
      ["gold medal", { uniform: "25 ± 25 %", trained: "0 ± 0 %" }],
      ["silver medal", { uniform: "0 ± 0 %", trained: "50 ± 50 %" }],
      ["bronze medal", { uniform: "0 ± 0 %", trained: "50 ± 50 %" }],
      ["no medal (or no champion)", { uniform: "75 ± 25 %", trained: "0 ± 0 %" }],
      ["graded runs (tasks × repeats)", { uniform: "4", trained: "2" }],
    ]);
  });
});

// layoutFigure draws the same numbers as the tables above (modalityStats, ceilingStats) from the same cells.
type Bars = { name: string; x: string[]; y: (number | null)[]; error_y?: { array: number[] }; customdata?: number[] };

describe("layoutFigure", () => {
  it("modality: one bar per arm per modality with a normalisable task (mean ± std over repeats)", () => {
    const fig = layoutFigure(experimentById("modality"), MFH, "smoke", CELLS)!;
    const bars = fig.data as Bars[];
    expect(bars.map((b) => b.x)).toEqual([["tabular (2 of 2 tasks)"], ["tabular (2 of 2 tasks)"]]);
    expect(bars.map((b) => b.y)).toEqual([[0.625], [1]]);
    expect(bars.map((b) => b.error_y!.array)).toEqual([[0.375], [0]]);
    expect((fig.layout!.title as { text: string }).text).toMatch(/<br><sup>plotted: the normalised score per modality \(clipped to \[−1, 2\], floored at 0\)/);
    expect(JSON.stringify(fig.layout!.yaxis)).toContain("normalised test score (1 = kit reference), avg@k");
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
