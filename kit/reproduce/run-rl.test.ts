// The rl experiments' smoke presets on real programs (1 step of 1 group of 2 on 2 built-in tasks), resumed without
// rerunning, and their tables; plus rlTable on hand-built runs with hand-computed figures.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { StoredRlRun } from "../erl/index.js";
import { openWorkspace } from "../store/index.js";
import { experimentById } from "./catalogue.js";
import { rlCellRunId, rlTable, runRlExperiment, storedRlTable, type RlCellResult } from "./run-rl.js";
import { resolveTaskSet } from "./run-search.js";

const run = (over: Partial<StoredRlRun>): StoredRlRun => ({
  runId: "r", status: "finished", steps: [], bestCandidates: [], groupsPerTask: {}, groups: [], scales: [], ...over,
});
const step = (step: number, bestReward: number, wallS: number) => ({ step, meanReward: 0, bestReward, bestAdvantage: 0, wallS });

describe("rlTable", () => {
  it("figures per run, then mean ± std over repeats; speed-up against the first arm", () => {
    const spec = experimentById("async-rl");
    const cells: RlCellResult[] = [
      // sync: steps of 120 s and 240 s → 3 min; async 60 s → 1 min: speed-up 3×
      { arm: "sync", repeat: 1, runId: "a", cached: true, run: run({ steps: [step(1, 0, 120), step(2, 0, 240)], groupsPerTask: { a: 2, b: 2 } }) },
      // groups per task 1 and 3: mean 2, population std 1 → CV 50 %
      { arm: "async", repeat: 1, runId: "b", cached: true, run: run({ steps: [step(1, 0, 60)], groupsPerTask: { a: 1, b: 3 } }) },
    ];
    const rows = rlTable(spec, "smoke", cells);
    expect(rows[0]!.values).toEqual({ runs: "1", "mean-step-minutes": "3.00 ± 0.00", "speed-up": "1.00×", "per-task-steps-cv": "0.0 ± 0.0%" });
    expect(rows[1]!.values).toEqual({ runs: "1", "mean-step-minutes": "1.00 ± 0.00", "speed-up": "3.00×", "per-task-steps-cv": "50.0 ± 0.0%" });
    expect(rows.slice(2).every((r) => r.source === "paper (reference)")).toBe(true);
  });

  it("the best candidate's advantage under both rules, and the later half's group-best reward", () => {
    const spec = experimentById("rl-reward-design");
    const r1 = run({ steps: [step(1, 0.2, 1), step(2, 0.6, 1), step(3, 0.8, 1)], bestCandidates: [{ entropic: 3, groupNormalised: 1 }, { entropic: 5, groupNormalised: 2 }] });
    const r2 = run({ steps: [step(1, 0.4, 1), step(2, 1, 1)], bestCandidates: [{ entropic: 6, groupNormalised: 1.5 }] });
    const rows = rlTable(spec, "smoke", [
      { arm: "adaptive", repeat: 1, runId: "a", cached: true, run: r1 },
      { arm: "adaptive", repeat: 2, runId: "b", cached: true, run: r2 },
    ]);
    // entropic per run 4 and 6 → 5 ± 1; group-normalised 1.5 and 1.5; late best reward (0.6+0.8)/2 = 0.7 and 1 → 0.85 ± 0.15
    expect(rows[0]!.values).toEqual({
      runs: "2", "best-advantage-entropic": "5.00 ± 1.00", "best-advantage-group-normalised": "1.50 ± 0.00", "group-best-reward": "0.850 ± 0.150",
      "group-best-fixed": "–",
    });
  });

  it("group-best-fixed: each group's best graded score on the one scale a cell stored, over the later half", () => {
    const spec = experimentById("rl-reward-design");
    // rmse task "t" on [W, B] = [−8, 0] (trivial rmse 8), stored only by the static cell
    const scale = { taskId: "t", higherIsBetter: false, staticBest: 0, staticWorst: -8, worstFrom: "trivial" as const, trivialScore: 8 };
    const steps = [step(1, 1, 1), step(2, 1, 1)];
    // later half = step 2: adaptive groups' best rmse 2 and 4 → (6/8 + 4/8)/2 = 0.625; static best 6 → 0.25
    const adaptive = run({ steps, groups: [{ step: 1, taskId: "t", testScores: [1] }, { step: 2, taskId: "t", testScores: [2, 3] }, { step: 2, taskId: "t", testScores: [4] }] });
    const fixedArm = run({ steps, scales: [scale], groups: [{ step: 2, taskId: "t", testScores: [6, 7] }] });
    const rows = rlTable(spec, "laptop", [
      { arm: "adaptive", repeat: 1, runId: "a", cached: true, run: adaptive },
      { arm: "static", repeat: 1, runId: "s", cached: true, run: fixedArm },
    ]);
    expect(rows[0]!.values["group-best-fixed"]).toBe("0.625 ± 0.000");
    expect(rows[1]!.values["group-best-fixed"]).toBe("0.250 ± 0.000");
  });
});

describe("runRlExperiment", () => {
  it("runs async-rl's smoke cells, then reads them back", async () => {
    const spec = experimentById("async-rl");
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-reproduce-rl-")), "ws"));
    try {
      const tasks = await resolveTaskSet(spec.presets.smoke!.tasks);
      const first = await runRlExperiment({ workspace: ws, spec, preset: "smoke", tasks });
      expect(first.map((c) => [c.arm, c.cached, c.run.status, c.run.steps.length])).toEqual([
        ["sync", false, "finished", 1], ["async", false, "finished", 1],
      ]);
      const again = await runRlExperiment({ workspace: ws, spec, preset: "smoke", tasks });
      expect(again.map((c) => c.cached)).toEqual([true, true]);
      const rows = rlTable(spec, "smoke", again);
      expect(rows.map((r) => r.source)).toEqual(["kit (smoke), exploratory", "kit (smoke), exploratory", "paper (reference)", "paper (reference)"]);
      expect(JSON.stringify(rows)).not.toMatch(/NaN|undefined/);
      // laid out again from the workspace alone (as notebook 06 does from a recording): the same rows and a figure
      const stored = await storedRlTable(ws, spec, "smoke");
      expect(stored.rows).toEqual(rows);
      expect(stored.cells.map((c) => c.runId)).toEqual([rlCellRunId(spec, "smoke", "sync", 1), rlCellRunId(spec, "smoke", "async", 1)]);
      expect(stored.figure?.data).toHaveLength(2);
      // an experiment with no finished cell here says which command makes them
      await expect(storedRlTable(ws, experimentById("rl-reward-design"), "smoke")).rejects.toThrow(
        /holds no finished cell of rl-reward-design at the smoke preset: run openmle reproduce rl-reward-design/,
      );
    } finally {
      ws.close();
    }
  }, 300_000);
});
