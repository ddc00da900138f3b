import { describe, expect, test } from "vitest";
import { ExperimentSpec } from "./experiment-spec.js";
import { pairedMarkdown, pairedRows, pairedText } from "./paired-table.js";
import type { CellResult } from "./run-search.js";

const spec = ExperimentSpec.parse({
  id: "t",
  title: "T",
  paperItem: "Table ?",
  kind: "search",
  question: "Q?",
  metrics: ["valid-rate"],
  rows: "arm",
  presets: {
    smoke: {
      tasks: { from: "builtin", ids: ["cars", "wine"] },
      repeats: 2,
      steps: 2,
      arms: [
        { id: "base", label: "base", policy: "uniform", harness: "openmle" },
        { id: "new", label: "new", policy: "default", harness: "openmle" },
      ],
    },
  },
  reference: [{ row: "paper", values: { "valid-rate": "1" } }],
});
const cell = (arm: string, task: string, repeat: number, testScore: number | null, higherIsBetter: boolean): CellResult => ({
  arm, task, repeat, runId: `${arm}-${task}-${repeat}`, cached: true, validRate: 1, testScore, normalized: null,
  normalisable: false, reference: null, higherIsBetter, modality: "tabular", grade: null, humanRank: null,
});

describe("pairedRows: each arm against the first, by task and repeat", () => {
  test("two tasks: relative differences averaged per task, signed by the metric's direction", () => {
    // cars (rmse, lower is better): base 4, 2; new 3, 2 → r = +0.25, 0 → task mean +0.125.
    // wine (accuracy, higher):      base 0.5, 0.8; new 0.6, null → r = +0.2 (repeat 2 failed) → task mean +0.2.
    // mean over tasks (0.125 + 0.2) / 2 = 0.1625; wins 2 (cars 1, wine 1), ties 1, one pair with a failed side.
    const cells = [
      cell("base", "cars", 1, 4, false), cell("base", "cars", 2, 2, false),
      cell("new", "cars", 1, 3, false), cell("new", "cars", 2, 2, false),
      cell("base", "wine", 1, 0.5, true), cell("base", "wine", 2, 0.8, true),
      cell("new", "wine", 1, 0.6, true), cell("new", "wine", 2, null, true),
    ];
    const [row, ...more] = pairedRows(spec, "smoke", cells);
    expect(more).toEqual([]);
    expect(row!.comparison).toBe("new − base");
    const r = row!.result;
    expect([r.wins, r.losses, r.ties, r.pairs.length, r.failed.a, r.failed.b, r.scale]).toEqual([2, 0, 1, 3, 1, 0, "relative"]);
    expect(r.interval!.mean).toBeCloseTo(0.1625, 12);
    expect(r.interval!.lo).toBeCloseTo(0.125, 12); // two tasks: every resample's mean lies between their values
    expect(r.interval!.hi).toBeCloseTo(0.2, 12);
    // 100 × 0.1625 is 16.249… in binary floating point: 16.2 to one decimal.
    expect(pairedText(r)).toBe("+16.2 % [+12.5 %, +20.0 %] (relative to the baseline, 2 tasks)");
    expect(pairedMarkdown([row!]).split("\n").slice(2)).toEqual([
      "| comparison | mean difference [95 %] | wins / losses / ties | pairs | pairs with a failed side |",
      "|---|---|---|---|---|",
      "| new − base | +16.2 % [+12.5 %, +20.0 %] (relative to the baseline, 2 tasks) | 2 / 0 / 1 | 3 | 1 |",
    ]);
  });

  test("one task: metric units; no pairs: said so; one arm or no search: no rows", () => {
    const one = pairedRows(spec, "smoke", [cell("base", "cars", 1, 4, false), cell("new", "cars", 1, 4.5, false)]);
    expect(pairedText(one[0]!.result)).toBe("−0.500 [−0.500, −0.500] (metric units, 1 task)");
    const none = pairedRows(spec, "smoke", [cell("base", "cars", 1, null, false), cell("new", "cars", 1, 3, false)]);
    expect(pairedText(none[0]!.result)).toBe("no pairs with both arms valid");
    expect(pairedRows({ ...spec, kind: "rl" }, "smoke", [])).toEqual([]);
    expect(pairedMarkdown([])).toBe("");
  });
});
