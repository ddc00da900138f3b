// The power line from a workspace's dev rows: the loop's held-out drafts of dev tasks, matched to the plan's arms
// by checkpoint name. The rows are power.test.ts' BINARY set, so the numbers are the ones computed there by hand.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CorpusIndex } from "../gym/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { registrationPower } from "./dev-power.js";
import type { ResolvedPlan } from "./experiment-plan.js";

const entry = (id: string, suite: string) => ({
  id, suite, study: id, modality: "tabular", taskType: "regression", metric: "rmse", packageHash: "h",
  headroom: { normalised: 0.5 },
});
const INDEX = { tasks: [entry("t1", "dev"), entry("t2", "dev"), entry("c1", "confirm")] } as unknown as CorpusIndex;

const plan = (measure: "valid_rate" | "win_rate"): ResolvedPlan => ({
  name: "p", question: "q",
  arms: [
    { name: "a", policy: { kind: "params", name: "uniform" }, harness: null, trainingTasks: [] },
    { name: "b", policy: { kind: "params", name: "default" }, harness: null, trainingTasks: [] },
  ],
  taskItems: ["suite:confirm"],
  tasks: Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, packageHash: "h", leaderboardHash: null, study: `c${i}`, ref: `c${i}` })),
  level: { kind: "drafts", draws: 32 }, seed: 1, measures: [measure],
  decision: { measure, comparison: ["a", "b"], test: "paired-bootstrap", alpha: 0.05, direction: "greater" },
  timeoutS: 60, memoryMb: 1024, concurrency: 1, kitCommit: "x",
});

// valid per draw: t1 uniform 1,0,1,0 and default 1,1,1,0; t2 uniform 0,0,0,0 and default 1,1,0,0.
const DRAWS: [string, string, number, (number | null)[]][] = [
  ["t1", "uniform", 0, [0.5, null, 0.7, null]],
  ["t1", "default", 1, [0.6, 0.4, 0.9, null]],
  ["t2", "uniform", 0, [null, null, null, null]],
  ["t2", "default", 1, [0.2, 0.3, null, null]],
];

let ws: Workspace;
beforeAll(async () => {
  ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-dev-power-")), "ws"));
  await ws.append(
    "loop_heldout_drafts",
    DRAWS.flatMap(([task, checkpoint, generation, scores]) =>
      scores.map((s, draft) => ({ loop_id: "L", generation, checkpoint, task_id: task, draft, status: s === null
        ? "runtime_error" : "success", valid_score: s, test_score: s, normalized: null, sandbox_s: 1 })),
    ),
  );
  await ws.append("tasks", [
    { task_id: "t1", name: "t1", metric: "accuracy", higher_is_better: true },
    { task_id: "t2", name: "t2", metric: "accuracy", higher_is_better: true },
  ]);
});
afterAll(() => ws.close());

describe("registrationPower", () => {
  it("σ̄² and τ² from the loop's dev rows of both arms' checkpoints", async () => {
    const { line } = await registrationPower(ws, plan("valid_rate"), { readIndex: async () => INDEX });
    // σ̄² = 11/48 = 0.229; δ = [−0.25, −0.5] is all noise: τ² = 0; MDE = 2.80159 · sqrt(2 · (11/48) / 32) / sqrt(40)
    expect(line).toBe(
      "power: with 40 tasks × 32 draws, the smallest A − B on valid_rate detected at 80 % power (two-sided α 0.05) " +
        "is 0.0530 (σ̄² 0.229 within tasks over 2 dev tasks; τ² 0.00 between tasks (dev rows of uniform and " +
        "default on 2 tasks))",
    );
  });

  it("the win rate from the spread of P(A ≻ B) − ½ over dev tasks", async () => {
    // t1: uniform [0.5, –, 0.7, –] vs default [0.6, 0.4, 0.9, –] (a failure loses to a score, ties a failure):
    //   0.5: 0 + 1 + 0 + 1 = 2; –: 0 + 0 + 0 + ½; 0.7: 1 + 1 + 0 + 1 = 3; –: ½ → P = 6 / 16
    // t2: uniform all failed vs default [0.2, 0.3, –, –]: each failure 0 + 0 + ½ + ½ = 1 → P = 4 / 16
    // d = [6/16 − ½, 4/16 − ½] = [−0.125, −0.25]: s_d = 0.0625 · sqrt(2); MDE = 2.80159 · 0.0883883 / sqrt(40)
    const { estimate } = await registrationPower(ws, plan("win_rate"), { readIndex: async () => INDEX });
    expect(estimate).toMatchObject({ kind: "mde", devTasks: 2, mde: expect.closeTo(0.0391533, 6) });
  });

  it("at the search level the loop's held-out searches pair with openmle arms of the same policy only", async () => {
    await ws.append(
      "loop_heldout",
      DRAWS.flatMap(([task, checkpoint, generation, scores]) =>
        scores.map((s, seed) => ({ loop_id: "L", generation, checkpoint, task_id: task, seed, test_score: s })),
      ),
    );
    const search = (harness: "openmle" | "aira-evo"): ResolvedPlan => ({
      ...plan("win_rate"),
      arms: plan("win_rate").arms.map((a) => ({ ...a, harness })),
      level: { kind: "search", seeds: 32, steps: 6 },
    });
    // The same rows as the drafts above, as seeds: the same spread, so the same MDE.
    const openmle = await registrationPower(ws, search("openmle"), { readIndex: async () => INDEX });
    expect(openmle.estimate).toMatchObject({ kind: "mde", devTasks: 2, mde: expect.closeTo(0.0391533, 6) });
    const aira = await registrationPower(ws, search("aira-evo"), { readIndex: async () => INDEX });
    expect(aira.estimate.kind).not.toBe("mde");
  });

  it("without a corpus index the line says what to do", async () => {
    const { line } = await registrationPower(ws, plan("valid_rate"), { readIndex: async () => null });
    expect(line).toMatch(/^power: no corpus index, so no development rows to estimate power from: build the corpus/);
  });
});
