import { describe, expect, it } from "vitest";
import { experimentById } from "./catalogue.js";
import { medalGrade, type CellResult } from "./run-search.js";
import { referenceGapRates, searchTable, tableColumns, tableMarkdown } from "./search-table.js";

const cell = (repeat: number, task: string, testScore: number | null, reference: number | null, higherIsBetter = true): CellResult => ({
  arm: "default-openmle", task, repeat, runId: `${task}-r${repeat}`, cached: true, validRate: 1, testScore,
  normalized: null, normalisable: false, reference, higherIsBetter, modality: "tabular", grade: null, humanRank: null,
});

// Hand-computed gaps g = dir · (test − ref) / |ref|:
//   repeat 1: t1 (0.9 − 0.8)/0.8 = +0.125 (match, surpass); t2 rmse −(2.1 − 2)/2 = −0.05; t4 no champion −1; t3 no ref
//   repeat 2: t1 0 (match); t2 −(1.5 − 2)/2 = +0.25 (match, surpass); t4 0 (match); t5 ref 0 left out
//   repeat 3: only t3 (no reference): no rate
const CELLS = [
  cell(1, "t1", 0.9, 0.8), cell(1, "t2", 2.1, 2, false), cell(1, "t3", 0.7, null), cell(1, "t4", null, 0.5),
  cell(2, "t1", 0.8, 0.8), cell(2, "t2", 1.5, 2, false), cell(2, "t4", 0.5, 0.5), cell(2, "t5", 3, 0),
  cell(3, "t3", 0.7, null),
];

describe("referenceGapRates", () => {
  it.each([
    ["both repeats", CELLS, [1 / 3, 1], [1 / 3, 1 / 3]],
    ["repeat 1 only", CELLS.filter((c) => c.repeat === 1), [1 / 3], [1 / 3]],
    ["no reference anywhere", CELLS.filter((c) => c.repeat === 3), [], []],
  ])("%s", (_name, cells, match, surpass) => {
    const r = referenceGapRates(cells);
    expect(r.match).toHaveLength(match.length);
    r.match.forEach((m, i) => expect(m).toBeCloseTo(match[i]!, 12));
    r.surpass.forEach((s, i) => expect(s).toBeCloseTo(surpass[i]!, 12));
  });

  it("naturebench's table carries Match and Surpass as mean ± population std over repeats", () => {
    const [kit] = searchTable(experimentById("naturebench"), "smoke", CELLS);
    // match: 33.3 % and 100 % → 66.7 ± 33.3; surpass: 33.3 % twice → 33.3 ± 0
    expect(kit!.values).toMatchObject({ "match-sota": "67 ± 33 %", "surpass-sota": "33 ± 0 %", k: "3" });
    const [other] = searchTable(experimentById("harness-fixed-model"), "smoke", CELLS.map((c) => ({ ...c, arm: "openmle" })));
    expect(other!.values).not.toHaveProperty("match-sota");
  });
});

describe("medalGrade and the medal columns (the paper preset's tasks carry leaderboards)", () => {
  // 10 teams, higher is better: gold ≥ 1.0 (position 1), silver ≥ 0.9 (2), bronze ≥ 0.7 (4)
  const lb = { source: "toy", scores: [1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1] };
  it.each([
    [1.0, "gold", 0.9], [0.95, "silver", 0.9], [0.7, "bronze", 0.6], [0.65, "none", 0.6], [null, "none", 0],
  ] as const)("test %s → %s, Human Rank %s", (score, grade, rank) => {
    const g = medalGrade(lb, score);
    expect(g.grade).toBe(grade);
    expect(g.humanRank).toBeCloseTo(rank, 12);
  });

  it("Medal Average = share of a repeat's tasks with any medal; Human Rank their mean; avg@k over repeats", () => {
    const g = (repeat: number, task: string, score: number | null) => ({ ...cell(repeat, task, score, null), arm: "openmle", ...medalGrade(lb, score) });
    // repeat 1: gold + none → 50 %, HR (0.9 + 0.6)/2 = 0.75; repeat 2: bronze + silver → 100 %, HR (0.6 + 0.9)/2 = 0.75
    const cells = [g(1, "a", 1), g(1, "b", 0.65), g(2, "a", 0.7), g(2, "b", 0.95)];
    const [kit] = searchTable(experimentById("harness-fixed-model"), "smoke", cells);
    expect(kit!.values).toMatchObject({ "medal-average": "75.00 ± 25.00", "human-rank": "0.7500 ± 0.0000" });
    const [plain] = searchTable(experimentById("harness-fixed-model"), "smoke", CELLS.map((c) => ({ ...c, arm: "openmle" })));
    expect(plain!.values).not.toHaveProperty("medal-average");
  });
});

describe("the paper's measures lead; the normalised score follows, clipped and with weak references marked", () => {
  const lb = { source: "corpus:a", scores: [1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1] };
  const g = (repeat: number, task: string, score: number, normalized: number, weak: boolean) => ({
    ...cell(repeat, task, score, 0.5), arm: "openmle", normalized, normalisable: true, weakReference: weak, ...medalGrade(lb, score),
  });
  // a: gold, normalised 2 (the clip's top); b: none, 0.5, weak reference.
  const cells = [g(1, "a", 1, 2, false), g(1, "b", 0.65, 0.5, true)];
  it("kit rows: runs, valid rate, Medal Average, Human Rank, then the normalised score, marked", () => {
    const [kit] = searchTable(experimentById("harness-fixed-model"), "smoke", cells);
    expect(Object.keys(kit!.values)).toEqual(["runs", "valid-rate", "medal-average", "human-rank", "normalised-score", "k"]);
    expect(kit!.values).toMatchObject({ "medal-average": "50.00 ± 0.00", "normalised-score": "1.250 ± 0.000 * (1 weak)" });
  });
  it("the table leads with the paper's columns even where only the paper's rows have medals", () => {
    const plain = searchTable(experimentById("harness-fixed-model"), "smoke", CELLS.map((c) => ({ ...c, arm: "openmle" })));
    expect(tableColumns(plain)).toEqual(["runs", "valid-rate", "medal-average", "human-rank", "normalised-score", "k"]);
    expect(tableMarkdown(plain).split("\n")[0]).toBe(
      "| source | setting | runs | valid-rate | medal-average | human-rank | normalised-score | k |");
  });
});
