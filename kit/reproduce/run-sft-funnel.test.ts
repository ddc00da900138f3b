// The sft and funnel experiments' smoke presets on real programs and real candidates, resumed without rerunning;
// sftTable and funnelRows on hand-built inputs with hand-computed figures.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { composition } from "../erl/index.js";
import { openWorkspace } from "../store/index.js";
import { experimentById } from "./catalogue.js";
import { funnelRows, runFunnelExperiment } from "./run-funnel.js";
import { resolveTaskSet } from "./run-search.js";
import { runSftExperiment, sftTable, storedSftTable, type SftCellResult } from "./run-sft.js";
import { REFERENCE_SOURCE } from "./search-table.js";

const ex = (operator: "draft" | "improve", path: "parallel" | "evolution") => ({ operator, path });

describe("sftTable", () => {
  it("per operator: examples and share averaged over repeats, the paper's rows below", () => {
    const spec = experimentById("sft-composition");
    // repeat 1: 3 parallel drafts + 1 evolution improve (75 % / 25 %); repeat 2: 1 parallel draft (100 % / 0 %)
    const cells: SftCellResult[] = [
      { arm: "default", repeat: 1, dataset: "a", cached: true, examples: 4, composition: composition([ex("draft", "parallel"), ex("draft", "parallel"), ex("draft", "parallel"), ex("improve", "evolution")]) },
      { arm: "default", repeat: 2, dataset: "b", cached: true, examples: 1, composition: composition([ex("draft", "parallel")]) },
    ];
    const rows = sftTable(spec, "smoke", cells);
    const draft = rows.find((r) => r.row.includes(": draft"))!;
    const improve = rows.find((r) => r.row.includes(": improve"))!;
    expect(draft).toEqual({ source: "kit (smoke), exploratory", row: "default teacher: draft (2.0 parallel + 0.0 evolution)", values: { examples: "2.0", share: "87.5%" } });
    expect(improve.values).toEqual({ examples: "0.5", share: "12.5%" });
    expect(rows.filter((r) => r.source === REFERENCE_SOURCE).map((r) => [r.row, r.values.share])).toEqual([
      ["draft", "74.0%"], ["debug", "16.5%"], ["improve", "6.6%"], ["crossover", "2.8%"],
    ]);
  });
});

describe("runSftExperiment", () => {
  it("evolves and collects the smoke cells, then reads the stored dataset back", async () => {
    const spec = experimentById("sft-composition");
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-reproduce-sft-")), "ws"));
    try {
      const tasks = await resolveTaskSet(spec.presets.smoke!.tasks);
      const events: string[] = [];
      const first = await runSftExperiment({ workspace: ws, spec, preset: "smoke", tasks, onEvent: (e) => events.push(e.type === "sft-cell" ? e.type : `${e.type} ${e.task}`) });
      expect(first.map((c) => [c.dataset, c.cached])).toEqual([["rp-sft-composition-smoke-default-r1", false]]);
      // progress within the cell: each teacher run, then each task's parallel drafts, then the cell
      const ids = tasks.map((t) => t.meta.id);
      expect(events).toEqual([...ids.map((id) => `sft-run ${id}`), ...ids.map((id) => `sft-drafts ${id}`), "sft-cell"]);
      expect(first[0]!.examples).toBeGreaterThan(0);
      const again = await runSftExperiment({ workspace: ws, spec, preset: "smoke", tasks });
      expect(again.map((c) => [c.cached, c.examples])).toEqual([[true, first[0]!.examples]]);
      expect(again[0]!.composition).toEqual(first[0]!.composition);
      expect(JSON.stringify(sftTable(spec, "smoke", again))).not.toMatch(/NaN|undefined/);
      // laid out from the workspace alone: the same cells and rows, nothing run
      const stored = await storedSftTable(ws, spec, "smoke");
      expect(stored.cells).toEqual(again);
      expect(stored.rows).toEqual(sftTable(spec, "smoke", again));
      await expect(storedSftTable(ws, spec, "laptop")).rejects.toThrow(/holds no dataset of sft-composition at the laptop preset/);
    } finally {
      ws.close();
    }
  }, 300_000);
});

describe("runFunnelExperiment", () => {
  it("builds the smoke sample into the workspace, then answers it from the build's cache", async () => {
    const spec = experimentById("gym-funnel");
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-reproduce-funnel-")), "ws"));
    try {
      const first = await runFunnelExperiment({ workspace: ws, spec, preset: "smoke" });
      expect([first.candidates, first.cached, first.dir]).toEqual([2, 0, join(ws.dir, "corpus-sample")]);
      const again = await runFunnelExperiment({ workspace: ws, spec, preset: "smoke" });
      expect(again.cached).toBe(2);
      expect(again.table.accepted.tasks).toBe(first.table.accepted.tasks);
      const rows = funnelRows(spec, "smoke", again);
      expect(rows[0]).toEqual({ source: "kit (smoke), exploratory", row: "export (candidates)", values: { count: "2", share: "100.0%" } });
      expect(rows.filter((r) => r.source === REFERENCE_SOURCE)).toHaveLength(4);
    } finally {
      ws.close();
    }
  }, 300_000);
});
