// The report's evaluation tables and figures lead with the paper's measures (Valid Rate, Medal Average, Human Rank),
// the normalised score after them, clipped and with weak references marked; evaluate() with runIds grades some runs as
// evaluate() grades the workspace (a corpus task on its corpus leaderboard).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { evaluate, evaluateRuns, searchEfficiency, writeLeaderboardManifest, type RunOutcome } from "../eval/index.js";
import { packageHash, resolveTask } from "../gym/index.js";
import { openWorkspace } from "../store/index.js";
import { evaluationTables, EXPLORATORY_NOTE, LEADERBOARD_NOTE, NORMALISED_COLUMN } from "./evaluation-tables.js";
import { NORMALISED_AXIS, reportFigureSet } from "./report-figures.js";

const o = (run_id: string, task_id: string, harness: string, seed: number, score: number | null): RunOutcome => ({
  run_id, task_id, harness, policy: "grammar", config_hash: "c", seed, modality: "tabular", higher_is_better: true,
  score, submission_exists: score !== null,
});
// "t" on a 5-row corpus leaderboard; "u" has none, only a weak reference (0.02 of the 0.5 to a perfect 1: 4 %).
const board = { source: "corpus:t", scores: [0.9, 0.8, 0.7, 0.6, 0.5] };
const ev = evaluateRuns(
  [o("a1", "t", "a", 1, 0.95), o("a2", "u", "a", 1, 0.51), o("b1", "t", "b", 1, 0.75), o("b2", "u", "b", 1, 0.53)],
  { leaderboards: { t: board }, baselines: { u: { trivial: 0.5, reference: 0.52, perfect: 1 } } },
);
const eff = searchEfficiency([], [], () => true);

describe("evaluationTables", () => {
  test("groups: valid rate, medal average, human rank, then the clipped normalised score with its weak mark", () => {
    const [groups, tasks] = evaluationTables(ev, eff);
    const heads = [...groups!.matchAll(/<th>([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(heads.slice(5, 9)).toEqual([
      "submission valid rate", "medal average", "human rank", "normalised (clipped to [−1, 2])",
    ]);
    expect(NORMALISED_COLUMN).toBe(heads[8]);
    // a on u: (0.51 − 0.5)/0.02 = 0.5; b: 1.5; each group has one task with a normalised score, weak.
    expect(groups).toContain("<td>0.5 ± 0 (n=1) * (1 weak)</td>");
    expect(groups).toContain(LEADERBOARD_NOTE);
    expect(groups).toContain(EXPLORATORY_NOTE);
    expect([...tasks!.matchAll(/<th>([^<]*)<\/th>/g)].map((m) => m[1])).toEqual([
      "group", "task", "modality", "runs", "valid rate", "medal rate", "human rank", NORMALISED_COLUMN,
    ]);
    expect(tasks).toContain("<td>1.5 *</td>");
  });
});

describe("reportFigureSet", () => {
  test("Valid Rate, Medal Average, Human Rank, then the normalised score on an axis that states its clip", () => {
    const { figures } = reportFigureSet({ evaluation: ev, efficiency: eff, search: { nodes: [], calls: [], prompts: [],
      higherIsBetter: new Map() } });
    const ids = figures.map((f) => f.id);
    expect(ids.slice(0, 4)).toEqual(["valid-rate", "medal-average", "human-rank", "normalized-score"]);
    const norm = figures.find((f) => f.id === "normalized-score")!.figure.layout as Record<string, { text?: string;
      title?: { text: string } }>;
    expect(norm.title!.text).toBe("Mean normalised test score per group, avg@k (1 task with a weak reference)");
    expect(norm.yaxis!.title!.text).toBe(NORMALISED_AXIS);
    expect(NORMALISED_AXIS).toContain("clipped to [−1, 2]; 0 = trivial, 1 = kit reference");
  });
});

describe("evaluate() of some runs (runIds)", () => {
  test("one run of a corpus task: graded on the corpus leaderboard, its weak flag from the stored metric", async () => {
    const task = await resolveTask("penguins");
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "report-some-")), "ws"));
    const dir = mkdtempSync(join(tmpdir(), "report-some-lb-"));
    mkdirSync(join(dir, "penguins"));
    writeFileSync(join(dir, "penguins", "leaderboard.csv"), "teamId,score\na,0.9\nb,0.8\nc,0.7\nd,0.6\ne,0.5\n");
    writeLeaderboardManifest(dir, { zoo_version: 1, zoo_hash: "z", entries: ["a", "b", "c", "d", "e"], tasks: {
      penguins: { package_hash: packageHash(task.dir), zoo_version: 1, zoo_hash: "z", metric: "accuracy",
        higher_is_better: true, rows: 5, invalid: 0, skipped: 0, left_off: [], build_seconds: 1,
        built_at: "2025-01-01" },
    } });
    try {
      await ws.append("tasks", [{ task_id: "penguins", name: "penguins", modality: "tabular", metric: "accuracy",
        higher_is_better: true, dir: task.dir, spec: JSON.stringify(task.meta) }]);
      await ws.append("runs", [0.95, 0.75].map((s, i) => ({ run_id: `r${i + 1}`, task_id: "penguins",
        harness: "openmle", seed: i + 1, config_hash: "h", status: "finished", summary: { test_score: s } })));
      const opts = { corpusLeaderboardsDir: dir, baselines: { penguins: { trivial: 0.5, reference: 0.52 } } };
      const one = await evaluate(ws, { ...opts, runIds: ["r2"] });
      const row = one.runs.map((r) => [r.run_id, r.grade, r.human_rank, r.weak_reference]);
      expect(row).toEqual([["r2", "none", 0.6, true]]);
      expect(one.tasks).toMatchObject([{ runs: 1, medal_rate: 0, weak_reference: true, normalized: 2 }]);
      expect(one.groups[0]!.k).toBe(1);
      expect((await evaluate(ws, opts)).runs.map((r) => r.grade)).toEqual(["gold", "none"]);
    } finally {
      ws.close();
    }
  }, 60_000);
});
