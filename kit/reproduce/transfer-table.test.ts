import { describe, expect, test } from "vitest";
import type { ValidationTransfer } from "../eval/index.js";
import { ExperimentSpec } from "./experiment-spec.js";
import type { CellResult } from "./run-search.js";
import { transferMarkdown, transferRows } from "./transfer-table.js";

const spec = ExperimentSpec.parse({
  id: "t", title: "T", paperItem: "Table ?", kind: "search", question: "Q?", metrics: ["valid-rate"], rows: "arm",
  presets: {
    smoke: {
      tasks: { from: "builtin", ids: ["cars"] }, repeats: 2, steps: 2,
      arms: [
        { id: "a", label: "A", policy: "uniform", harness: "openmle" },
        { id: "b", label: "B", policy: "default", harness: "aira-evo" },
      ],
    },
  },
  reference: [{ row: "paper", values: { "valid-rate": "1" } }],
});
const cell = (arm: string, runId: string) => ({ arm, task: "cars", repeat: 1, runId }) as CellResult;
const view = (validGain: number | null, testGain: number | null, regret: number | null) =>
  ({ champion_vs_draft: { validGain, testGain }, regret }) as unknown as ValidationTransfer;

describe("transferRows: per arm, counts over its runs", () => {
  test("validation gains that held, reversed, or were a draft; the champion best on test", () => {
    // A: r1 gained on validation and held (regret 0); r2 gained and reversed; r3 champion is the draft (gain 0).
    // B: r4 gained and the test tied (neither held nor reversed); r5 has no view (not counted).
    const views = new Map([
      ["r1", view(0.5, 0.2, 0)], ["r2", view(0.3, -0.1, 0.4)], ["r3", view(0, 0, 0)], ["r4", view(0.1, 0, 0.2)],
    ]);
    const cells = [cell("a", "r1"), cell("a", "r2"), cell("a", "r3"), cell("b", "r4"), cell("b", "r5")];
    expect(transferRows(spec, "smoke", cells, views)).toEqual([
      { arm: "A", runs: 3, validGain: 2, held: 1, reversed: 1, championBestOnTest: 2 },
      { arm: "B", runs: 1, validGain: 1, held: 0, reversed: 0, championBestOnTest: 0 },
    ]);
    expect(transferMarkdown(transferRows(spec, "smoke", cells, views)).split("\n").slice(-2)).toEqual([
      "| A | 3 | 2 of 3 | 1 of 2 | 1 of 2 | 2 of 3 |",
      "| B | 1 | 1 of 1 | 0 of 1 | 0 of 1 | 0 of 1 |",
    ]);
    expect(transferRows({ ...spec, kind: "rl" }, "smoke", cells, views)).toEqual([]);
  });
});
