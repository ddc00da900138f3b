// A search experiment's smoke preset end to end on real programs (2 built-in tasks × 2 arms × 1 repeat × 2 steps),
// then again: every cell is read back, none re-executed.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeLeaderboardManifest } from "../eval/index.js";
import { packageHash, type TaskPackage } from "../gym/index.js";
import { openWorkspace } from "../store/index.js";
import { experimentById } from "./catalogue.js";
import { resolveTaskSet, runSearchExperiment, type CellEvent } from "./run-search.js";
import { readCells } from "./cell-store.js";
import { storedTable } from "./run-shared.js";
import { REFERENCE_SOURCE, searchTable, tableMarkdown } from "./search-table.js";

/** A corpus leaderboards folder with a 5-row leaderboard per task, built on its package (or on `hashes`' one). */
function corpusBoards(tasks: readonly TaskPackage[], hashes: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "openmle-reproduce-lb-"));
  const entry = (t: TaskPackage) => ({
    package_hash: hashes[t.meta.id] ?? packageHash(t.dir), zoo_version: 1, zoo_hash: "z", metric: t.meta.metric,
    higher_is_better: t.meta.higherIsBetter, rows: 5, invalid: 0, skipped: 0, left_off: [], build_seconds: 1,
    built_at: "2025-01-01T00:00:00Z",
  });
  for (const t of tasks) {
    mkdirSync(join(dir, t.meta.id), { recursive: true });
    const scores = t.meta.higherIsBetter ? [0.99, 0.9, 0.8, 0.7, 0.6] : [0.1, 0.2, 0.3, 0.4, 0.5];
    writeFileSync(join(dir, t.meta.id, "leaderboard.csv"), `teamId,score\n${scores.map((x, i) => `e${i},${x}`).join("\n")}\n`);
  }
  writeLeaderboardManifest(dir, { zoo_version: 1, zoo_hash: "z", entries: ["e0", "e1", "e2", "e3", "e4"],
    tasks: Object.fromEntries(tasks.map((t) => [t.meta.id, entry(t)])) });
  return dir;
}

describe("runSearchExperiment", () => {
  it("runs the smoke cells, resumes without rerunning, and lays the table beside the paper's rows", async () => {
    const spec = experimentById("harness-fixed-model");
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-reproduce-")), "ws"));
    try {
      const tasks = await resolveTaskSet(spec.presets.smoke!.tasks);
      const events: CellEvent[] = [];
      const first = await runSearchExperiment({ workspace: ws, spec, preset: "smoke", tasks, onEvent: (e) => events.push(e) });
      expect(first.map((c) => `${c.arm}/${c.task}/${c.repeat}`)).toEqual([
        "openmle/cars/1", "openmle/seattle-weather/1", "aira-evo/cars/1", "aira-evo/seattle-weather/1",
      ]);
      expect(events.map((e) => [e.done, e.total, e.cached])).toEqual([[1, 4, false], [2, 4, false], [3, 4, false], [4, 4, false]]);
      const executions = async () => (await ws.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM executions"))[0]!.n;
      const before = await executions();

      const again = await runSearchExperiment({ workspace: ws, spec, preset: "smoke", tasks });
      expect(again.every((c) => c.cached)).toBe(true);
      expect(again.map((c) => c.testScore)).toEqual(first.map((c) => c.testScore));
      // no cell's program ran again (no new execution records)
      expect(await executions()).toBe(before);
      expect(before).toBeGreaterThanOrEqual(4);

      const rows = searchTable(spec, "smoke", again);
      expect(rows.filter((r) => r.source === REFERENCE_SOURCE).map((r) => r.row)).toEqual(spec.reference.map((r) => r.row));
      expect(rows.slice(0, 2).map((r) => [r.source, r.row, r.values.runs, r.values.k])).toEqual([
        ["kit (smoke), exploratory", "OpenMLE-Evo", "2", "1"], ["kit (smoke), exploratory", "AIRA-Evo", "2", "1"],
      ]);
      const md = tableMarkdown(rows);
      // The paper's measures lead (here only the paper's rows have them), then the normalised score.
      expect(md).toMatch(/^\| source \| setting \| runs \| valid-rate \| medal-average \| human-rank \| normalised-score \| k \|/);
      expect(md).not.toMatch(/NaN|undefined/);
      expect(md.split("\n").filter((l) => l.startsWith("| paper (reference) |"))).toHaveLength(spec.reference.length);

      // The cells are stored (reproduce_cells): the table and the layouts sharing them come back with no task at hand.
      const sortKey = (c: { arm: string; task: string }) => `${c.arm}/${c.task}`;
      expect((await readCells(ws, spec.id, "smoke")).map(sortKey)).toEqual(again.map(sortKey).sort());
      expect((await storedTable(ws, spec, "smoke")).rows).toEqual(rows);
      const eff = await storedTable(ws, experimentById("search-efficiency"), "smoke");
      expect(eff.rows.slice(0, 3).map((r) => r.row)).toEqual(["OpenMLE-Evo", "AIRA-Evo", "OpenMLE-Evo vs AIRA-Evo, 2 matched task-runs"]);
      expect(eff.rows[0]!.values.tokens).toMatch(/^[\d.]+K ± [\d.]+K? chars$/);
      await expect(storedTable(ws, experimentById("modality"), "smoke")).rejects.toThrow(
        /holds no cells of model-fixed-harness at the smoke preset: run openmle reproduce modality --preset smoke/);

      // Corpus leaderboards built on the tasks' packages grade the cells (read back, nothing re-executed): medals and
      // Human Rank lead the table; one built on another package is left out with a warning.
      const boards = corpusBoards(tasks, { "seattle-weather": "0000000000000000" });
      const warnings: string[] = [];
      const graded = await runSearchExperiment({ workspace: ws, spec, preset: "smoke", tasks, corpusLeaderboardsDir: boards,
        onWarning: (w) => warnings.push(w) });
      expect(await executions()).toBe(before);
      expect(graded.map((c) => [c.task, c.grade !== null, c.humanRank === null])).toEqual([
        ["cars", true, false], ["seattle-weather", false, true], ["cars", true, false], ["seattle-weather", false, true],
      ]);
      expect(warnings).toEqual([expect.stringMatching(/^the corpus leaderboard of seattle-weather was built on package 0{16}/)]);
      const [kit] = searchTable(spec, "smoke", graded);
      expect(Object.keys(kit!.values)).toEqual(["runs", "valid-rate", "medal-average", "human-rank", "normalised-score", "k"]);
    } finally {
      ws.close();
    }
  }, 300_000);

  it("naturebench's smoke: each cell knows its task's reference, and the table gives Match / Surpass", async () => {
    const spec = experimentById("naturebench");
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-reproduce-")), "ws"));
    try {
      const cells = await runSearchExperiment({ workspace: ws, spec, preset: "smoke", tasks: await resolveTaskSet(spec.presets.smoke!.tasks) });
      expect(cells.map((c) => [c.task, c.higherIsBetter])).toEqual([["cars", false], ["seattle-weather", true]]);
      expect(cells.every((c) => c.reference !== null && c.reference > 0)).toBe(true);
      const [kit] = searchTable(spec, "smoke", cells);
      expect(kit!.values["match-sota"]).toMatch(/^(0|50|100) ± 0 %$/);
      expect(kit!.values["surpass-sota"]).toMatch(/^(0|50|100) ± 0 %$/);
    } finally {
      ws.close();
    }
  }, 300_000);
});
