import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importSelectList } from "./import-upgrades.js";
import { importParquet, openWorkspace } from "./index.js";

describe("importSelectList: an older export's renamed columns read under their new names", () => {
  it.each([
    { table: "cards", cols: ["run_id", "is_champion"], want: '* EXCLUDE ("is_champion"), "is_champion" AS "champion_at_write"' },
    { table: "cards", cols: ["run_id", "champion_at_write"], want: "*" },
    { table: "cards", cols: ["run_id", "is_champion", "champion_at_write"], want: "*" },
    { table: "nodes", cols: ["run_id", "is_champion"], want: "*" },
  ])("$table $cols", ({ table, cols, want }) => expect(importSelectList(table, cols)).toBe(want));
});

// data/recorded-runs/cars was exported before migration 5: no lineage_depth/utility, is_champion, no runs.champion_*.
describe("importing the recorded runs (an export older than migrations 5 and 7)", () => {
  it("keeps every value, renames is_champion, fills the final champion from the summary and nodes", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-import-old-")), "ws"));
    try {
      const dir = new URL("../../data/recorded-runs/cars/", import.meta.url).pathname;
      for (const t of ["tasks", "runs", "nodes", "cards"]) await importParquet(ws, join(dir, `${t}.parquet`), t);
      const atWrite = await ws.query(
        "SELECT run_id, count(*) FILTER (WHERE champion_at_write)::INTEGER AS n FROM cards GROUP BY 1 ORDER BY 1",
      );
      // The same counts as `is_champion` in the file (7, 6, 12, 11 cards were rank 1 when written).
      expect(atWrite).toEqual([
        { run_id: "run-0fd6ad41", n: 6 },
        { run_id: "run-734fa811", n: 11 },
        { run_id: "run-8a16298d", n: 12 },
        { run_id: "run-e3833022", n: 7 },
      ]);
      const runs = await ws.query(
        `SELECT run_id, champion_node_id, champion_valid_score, champion_fitness,
                champion_test_score = CAST(json_extract_string(summary, '$.champion.testScore') AS DOUBLE) AS test_ok
         FROM runs ORDER BY run_id`,
      );
      // cars is RMSE (lower is better): fitness = −validation. Values from data/recorded-runs/cars/PROVENANCE.md.
      expect(runs).toEqual([
        { run_id: "run-0fd6ad41", champion_node_id: "n0029", champion_valid_score: 2.374322, champion_fitness: -2.374322, test_ok: true },
        { run_id: "run-734fa811", champion_node_id: "n0039", champion_valid_score: 2.382219, champion_fitness: -2.382219, test_ok: true },
        { run_id: "run-8a16298d", champion_node_id: "n0037", champion_valid_score: 2.934849, champion_fitness: -2.934849, test_ok: true },
        { run_id: "run-e3833022", champion_node_id: "n0026", champion_valid_score: 2.397501, champion_fitness: -2.397501, test_ok: true },
      ]);
      // Every champion is the final one: no scored node of its run has a higher fitness.
      const beaten = await ws.query(
        "SELECT count(*)::INTEGER AS n FROM nodes n JOIN runs r USING (run_id) WHERE n.fitness > r.champion_fitness",
      );
      expect(beaten).toEqual([{ n: 0 }]);
    } finally {
      ws.close();
    }
  });
});
