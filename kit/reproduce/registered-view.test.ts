// A registration laid out as a reproduce table: the pure view (hand-made rows → cells, label as source), and the
// whole read on a real workspace (register → run with a scripted sandbox → table, the read logged as a look).
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  experimentHistory, parsePlan, parseResolvedPlan, registerExperiment, runExperiment, type ExperimentResults,
} from "../experiment/index.js";
import type { CorpusIndex } from "../gym/index.js";
import type { ExecutionRecord, SandboxJob } from "../sandbox/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { experimentById } from "./catalogue.js";
import { registeredTable, registeredView } from "./registered-view.js";
import { searchTable } from "./search-table.js";

const arm = (name: string, harness: string | null) => ({
  name, policy: { kind: "params", name: "default" }, harness, trainingTasks: [] as string[],
});
const resolved = (level: object) => parseResolvedPlan(JSON.stringify({
  name: "v", question: "q?", arms: [arm("OpenMLE", "openmle"), arm("aira", "aira-evo")],
  tasks: [{ id: "t1", packageHash: "h1", leaderboardHash: "l1", study: "t1", ref: "t1" },
    { id: "t2", packageHash: "h2", leaderboardHash: null, study: "t2", ref: "t2" }],
  taskItems: ["t1", "t2"], level, seed: 1, measures: ["medal_average", "win_rate"],
  decision: { measure: "win_rate", comparison: ["OpenMLE", "aira"], test: "paired-bootstrap", alpha: 0.05, direction: "greater" },
  timeoutS: 60, memoryMb: 1024, concurrency: 1, kitCommit: "c",
}), "exp-1");
const cell = (a: string, task: string, seed: number, test: number | null, medal: string | null, rank: number | null) => ({
  runId: "exp-1-r1", arm: a, taskId: task, draw: seed, status: "ok", valid: test !== null, validScore: test, testScore: test,
  validRate: test === null ? 0 : 0.5, evolveRunId: `exp-1-r1-${a}-${task}-s${seed}`, sandboxS: 1, normalisable: false,
  normalized: null, medal, humanRank: rank,
}) as ExperimentResults["cells"][number];
const results = (level: object, cells: ExperimentResults["cells"]) => ({
  registration: { registrationId: "exp-1" } as ExperimentResults["registration"],
  plan: resolved(level), label: "registered exp-1", cells,
});
const facts = new Map([["t1", { modality: "tabular", higherIsBetter: true }], ["t2", { modality: "text", higherIsBetter: false }]]);

describe("registeredView", () => {
  const owner = experimentById("harness-fixed-model");
  it("maps the plan's arms to the preset, each result row to a cell, the label to the rows' source", () => {
    const v = registeredView(owner, results({ kind: "search", seeds: 2, steps: 6 }, [
      cell("OpenMLE", "t1", 1, 0.9, "gold", 1), cell("aira", "t1", 1, null, "none", 0),
      cell("OpenMLE", "t1", 2, 0.7, "none", 0.5), cell("aira", "t1", 2, 0.8, "bronze", 0.75),
    ]), facts);
    const p = v.owner.presets[v.preset]!;
    expect(p.arms.map((a) => [a.id, a.label])).toEqual([["openmle", "OpenMLE (default, openmle)"], ["aira", "aira (default, aira-evo)"]]);
    expect([p.repeats, p.steps, p.source]).toEqual([2, 6, "registered exp-1"]);
    expect(v.cells[1]).toMatchObject({ arm: "aira", task: "t1", repeat: 1, testScore: null, validRate: 0, grade: "none",
      humanRank: 0, modality: "tabular", runId: "exp-1-r1-aira-t1-s1" });
    // Medal Average per seed: OpenMLE 100 %, 0 % → 50 ± 50; aira 0 %, 100 % → 50 ± 50. Human Rank 0.75 ± 0.25 and
    // 0.375 ± 0.375; valid rate OpenMLE 1, 1; aira 0, 1.
    const rows = searchTable({ ...owner, presets: v.owner.presets }, v.preset, v.cells);
    expect(rows.slice(0, 2).map((r) => [r.source, r.row, r.values["medal-average"], r.values["human-rank"], r.values["valid-rate"]]))
      .toEqual([
        ["registered exp-1", "OpenMLE (default, openmle)", "50.00 ± 50.00", "0.7500 ± 0.2500", "1.00 ± 0.00"],
        ["registered exp-1", "aira (default, aira-evo)", "50.00 ± 50.00", "0.3750 ± 0.3750", "0.50 ± 0.50"],
      ]);
  });
  it("refuses a drafts-level registration, naming experiment show", () => {
    expect(() => registeredView(owner, results({ kind: "drafts", draws: 4 }, []), facts)).toThrow(
      /registration exp-1 is at the drafts level: .* openmle experiment show exp-1/,
    );
  });
});

// A real workspace: penguins is a dev task (the plan is exploratory), programs scored by a hash of their code.
const entry = (id: string, suite: string) => ({
  id, suite, study: id, modality: "tabular", taskType: "regression", metric: "rmse", headroom: { normalised: 0.5 },
});
const INDEX = { tasks: [entry("penguins", "dev")] } as unknown as CorpusIndex;
const index = { loadIndex: async () => INDEX, readIndex: async () => INDEX, kitCommit: "test-commit" };
let n = 0;
async function scripted(job: SandboxJob): Promise<ExecutionRecord> {
  const h = createHash("sha256").update(job.code ?? "").digest("hex");
  const score = parseInt(h.slice(0, 4), 16) / 65536;
  return {
    executionId: `x-${++n}`, idempotencyKey: `${h}-${n}`, taskId: job.task.meta.id, backend: "scripted", status: "success",
    validScore: score, testScore: score, errorType: null, errorSignature: null, traceback: null,
    stdoutTail: `Final Validation Score: ${score}`, stderrTail: "", wallS: 0.1, cpuS: 0.1, peakMemMb: 1, artifacts: [],
    codeHash: h, limits: { timeoutS: 30, memoryMb: 1024, cpus: 1, gpus: 0, diskMb: 1024 }, startedAt: new Date(0), endedAt: new Date(0),
  } as ExecutionRecord;
}

let ws: Workspace;
beforeAll(async () => {
  ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-registered-view-")), "ws"));
});
afterAll(() => ws.close());

describe("registeredTable", () => {
  it("lays out a registration's run as the experiment's table and its modality layout, each read a logged look", async () => {
    const plan = parsePlan({
      name: "view", question: "which harness?", tasks: ["penguins"], level: { kind: "search", seeds: 2, steps: 2 },
      arms: [{ name: "openmle", params: "default", harness: "openmle" }, { name: "aira", params: "default", harness: "aira-evo" }],
      measures: ["valid_rate", "win_rate"], decision: { measure: "valid_rate", comparison: ["openmle", "aira"] }, timeout_s: 30,
    });
    const { registration: reg } = await registerExperiment({ workspace: ws, plan, ...index });
    const id = reg.registrationId;
    await expect(registeredTable(ws, experimentById("harness-fixed-model"), id, { command: "t" })).rejects.toThrow(
      `registration ${id} has no completed run to lay out: openmle experiment run ${id}`,
    );
    await runExperiment({ workspace: ws, registrationId: id, evaluate: scripted });
    const t = await registeredTable(ws, experimentById("harness-fixed-model"), id, { command: "reproduce 1" });
    expect(t.rows.filter((r) => r.source === `exploratory ${id}`).map((r) => [r.row, r.values.runs, r.values.k])).toEqual([
      ["openmle (default, openmle)", "2", "2"],
      ["aira (default, aira-evo)", "2", "2"],
    ]);
    expect(t.rows.some((r) => r.source === "paper (reference)")).toBe(true);
    const m = await registeredTable(ws, experimentById("modality"), id, { command: "reproduce 2" });
    expect(m.rows[0]).toMatchObject({ source: `exploratory ${id}`, row: "tabular" });
    await expect(registeredTable(ws, experimentById("search-efficiency"), id, { command: "x" })).rejects.toThrow(
      /run it with --workspace, not --registered/,
    );
    expect((await experimentHistory(ws)).find((h) => h.registration.registrationId === id)!.looks).toBe(2);
  });
});
