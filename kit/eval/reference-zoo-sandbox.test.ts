// SLOW (about 15 s on 2 idle cores, 50 s on busy ones): the whole reference zoo in the real sandbox on small
// built-in tasks, one of each submission shape (label, value, proba_multi, ranking), built into leaderboards twice
// to check that a rebuild gives the same bytes. Skipped without bubblewrap.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { buildTask, resolveTask } from "../gym/index.js";
import { vegaRecords, writeCsv } from "../gym/test-helpers/raw-tables.js";
import { probeBwrap } from "../sandbox/index.js";
import { buildCorpusLeaderboards, readLeaderboardManifest, ZOO_ENTRIES } from "./index.js";

const noBwrap = probeBwrap();
if (noBwrap) console.warn(`SKIP reference-zoo sandbox test: ${noBwrap}`);

describe.skipIf(!!noBwrap)("the reference zoo in the sandbox (slow)", () => {
  test("penguins, cars, wine and a ranking task: leaderboards of ≥ 20 entries, best first; a rebuild is identical", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "zoo-sandbox-"));
    const penguins = writeCsv(join(tmp, "penguins.csv"), vegaRecords("penguins.json"));
    const ranked = await buildTask(
      { id: "penguins-top2", table: penguins, target: "species", metric: "map_at_k", k: 2, split: { kind: "stratified", seed: 3 } },
      { outDir: join(tmp, "penguins-top2") },
    );
    const tasks = [await resolveTask("penguins"), await resolveTask("cars"), await resolveTask("wine"), ranked];
    const out = join(tmp, "lb");
    const r = await buildCorpusLeaderboards(tasks, { out });
    expect(r.failed).toEqual([]);
    const m = readLeaderboardManifest(out)!;
    const rows = (id: string) => readFileSync(join(out, id, "leaderboard.csv"), "utf8").trimEnd().split("\n").slice(1)
      .map((l) => [l.split(",")[0]!, Number(l.split(",")[1])] as const);
    for (const t of tasks) {
      const id = t.meta.id;
      const lb = rows(id);
      expect(lb.length, `${id}: ${JSON.stringify(m.tasks[id]!.left_off)}`).toBeGreaterThanOrEqual(20);
      const scores = lb.map(([, s]) => s);
      const sorted = [...scores].sort((a, b) => (t.meta.higherIsBetter ? b - a : a - b));
      expect(scores, id).toEqual(sorted);
      expect(m.tasks[id]!.rows + m.tasks[id]!.invalid + m.tasks[id]!.skipped).toBe(ZOO_ENTRIES.length);
      // A practitioner's models beat the constant prediction.
      expect(lb.findIndex(([n]) => n === "constant"), id).toBeGreaterThan(lb.length / 2);
    }
    // Naive Bayes has no regressor: skipped on cars, with the reason.
    expect(m.tasks.cars!.left_off).toContainEqual({
      name: "naive-bayes", status: "skipped", message: "no model of this entry for the task type",
    });
    const before = readFileSync(join(out, "penguins", "leaderboard.csv"), "utf8");
    await buildCorpusLeaderboards([tasks[0]!], { out, config: { rebuild: true } });
    expect(readFileSync(join(out, "penguins", "leaderboard.csv"), "utf8")).toBe(before);
  }, 300_000);
});
