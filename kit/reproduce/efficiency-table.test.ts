import { describe, expect, it } from "vitest";
import type { EffCall, EffNode } from "../eval/index.js";
import { experimentById } from "./catalogue.js";
import { efficiencyTable, kilo } from "./efficiency-table.js";
import type { CellResult } from "./run-search.js";

const cell = (arm: string, repeat: number, runId: string): CellResult => ({
  arm, task: "t", repeat, runId, modality: "tabular", cached: true, validRate: 1, testScore: 1, normalized: 1,
  normalisable: true, reference: 1, higherIsBetter: true, grade: null, humanRank: null,
});
// run → [operator, validation score, prompt characters] per step (higher is better)
const RUNS: Record<string, [string, number, number][]> = {
  A1: [["draft", 0.5, 1000], ["improve", 0.7, 3000], ["draft", 0.6, 1000]], // records 2; late: improve .2 → 1
  A2: [["draft", 0.4, 1000], ["draft", 0.6, 1000], ["improve", 0.8, 4000]], // records 3; late .2 + .2 → 0.5
  B1: [["draft", 0.5, 2000], ["improve", 0.4, 8000], ["improve", 0.45, 10000]], // records 1; late none
  B2: [["draft", 0.3, 2000], ["crossover", 0.9, 12000]], // records 2; late 1
};
const nodes: EffNode[] = Object.entries(RUNS).flatMap(([run_id, ns]) =>
  ns.map(([operator, valid_score], step) => ({ run_id, node_id: `n${step}`, step, operator, valid_score })));
const prompts: EffCall[] = Object.entries(RUNS).flatMap(([run_id, ns]) =>
  ns.map(([operator, , prompt_chars]) => ({ run_id, operator, prompt_chars, prompt_tokens: null, completion_tokens: null })));
const CELLS = [cell("openmle", 1, "A1"), cell("openmle", 2, "A2"), cell("aira-evo", 1, "B1"), cell("aira-evo", 2, "B2")];

describe("efficiencyTable", () => {
  it("per arm and the first arm against the second, hand-computed", () => {
    const rows = efficiencyTable(experimentById("search-efficiency"), experimentById("harness-fixed-model"), "smoke", CELLS, {
      nodes, prompts, higherIsBetter: () => true,
    });
    expect(rows.slice(0, 3).map((r) => [r.row, r.values])).toEqual([
      ["OpenMLE-Evo", {
        runs: "2", nodes: "3.0 ± 0.0", tokens: "5.5K ± 500 chars", // chars per run 5,000 and 6,000
        "new-record-updates-per-token": "45.45 per 100K chars", // 5 records / 11,000 chars
        "improve-prompt-p99": "4.0K chars", // p99 of 3,000 and 4,000 = 3,990
        "late-gain-share": "75.0 % (2 runs)",
      }],
      ["AIRA-Evo", {
        runs: "2", nodes: "2.5 ± 0.5", tokens: "17.0K ± 3.0K chars",
        "new-record-updates-per-token": "8.82 per 100K chars", // 3 / 34,000
        "improve-prompt-p99": "10.0K chars", // 9,980
        "late-gain-share": "100.0 % (1 run)",
      }],
      ["OpenMLE-Evo vs AIRA-Evo, 2 matched task-runs", {
        nodes: "+20.0 %", // (6 − 5) / 5
        tokens: "−67.6 %", // (11,000 − 34,000) / 34,000
        "new-record-updates-per-token": "+415.2 %", // (45.45 − 8.82) / 8.82
        "improve-prompt-p99": "10.0K → 4.0K chars",
        "late-gain-share": "75.0 % vs 100.0 %",
      }],
    ]);
    expect(rows.at(-1)!.source).toBe("paper (reference)");
  });

  it("says so where runs have no prompt sizes (cards written before migration 10)", () => {
    const old = prompts.map((p) => (p.run_id.startsWith("B") ? { ...p, prompt_chars: null } : p));
    const rows = efficiencyTable(experimentById("search-efficiency"), experimentById("harness-fixed-model"), "smoke", CELLS, {
      nodes, prompts: old, higherIsBetter: () => true,
    });
    expect(rows[1]!.values.tokens).toBe("– (2 runs without prompt sizes)");
  });

  it.each([[0, "0"], [999, "999"], [1000, "1.0K"], [54_321, "54.3K"], [1_234_567, "1.23M"], [Number.NaN, "–"]])("kilo(%d) = %s", (x, s) =>
    expect(kilo(x)).toBe(s));
});
