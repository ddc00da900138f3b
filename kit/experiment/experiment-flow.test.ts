// register → run → read, on a real workspace and built-in task packages, with a scripted sandbox (each program's
// outcome a function of its code): the rules of the store and runner, fast. The CLI test runs real programs.
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveCheckpoint } from "../erl/index.js";
import type { CorpusIndex } from "../gym/index.js";
import { defaultGrammarParams } from "../policy/index.js";
import type { ExecutionRecord, SandboxJob } from "../sandbox/index.js";
import { openWorkspace, type Workspace } from "../store/index.js";
import { parsePlan, type ExperimentPlanInput } from "./experiment-plan.js";
import { experimentHistory, readExperimentResults } from "./experiment-results.js";
import { listExperimentRuns, readResults } from "./experiment-store.js";
import { registerExperiment } from "./register-experiment.js";
import { runExperiment } from "./run-experiment.js";

// A corpus index in which the built-in penguins is a dev task and cars a confirm task (suiteTasks reads these fields).
const entry = (id: string, suite: string) => ({
  id, suite, study: id, modality: "tabular", taskType: "regression", metric: "rmse", headroom: { normalised: 0.5 },
});
const INDEX = { tasks: [entry("penguins", "dev"), entry("cars", "confirm")] } as unknown as CorpusIndex;
const index = { loadIndex: async () => INDEX, readIndex: async () => INDEX, kitCommit: "test-commit" };

/** A program's outcome from its code: fails when sha256(code) starts with 0–3, else scores its first 4 hex / 65536. */
let executed = 0;
let failAfter = Infinity;
async function scripted(job: SandboxJob): Promise<ExecutionRecord> {
  if (++executed > failAfter) throw new Error("the sandbox went away");
  const h = createHash("sha256").update(job.code ?? "").digest("hex");
  const ok = parseInt(h[0]!, 16) >= 4;
  const score = parseInt(h.slice(0, 4), 16) / 65536;
  const at = new Date(0);
  return {
    executionId: `x-${executed}`, idempotencyKey: h, taskId: job.task.meta.id, backend: "scripted",
    status: ok ? "success" : "runtime_error", validScore: ok ? score : null, testScore: ok ? score : null,
    errorType: ok ? null : "RuntimeError", errorSignature: ok ? null : "runtime_error", traceback: null,
    stdoutTail: ok ? `Final Validation Score: ${score}` : "", stderrTail: "", wallS: 0.1, cpuS: 0.1, peakMemMb: 1,
    artifacts: [], codeHash: h, limits: { timeoutS: 30, memoryMb: 1024, cpus: 1, gpus: 0, diskMb: 1024 },
    startedAt: at, endedAt: at,
  } as ExecutionRecord;
}

const plan = (o: Partial<ExperimentPlanInput> = {}) =>
  parsePlan({
    name: "flow", question: "does default draft better than uniform?",
    arms: [{ name: "u", params: "uniform" }, { name: "d", params: "default" }],
    tasks: ["cars"], level: { kind: "drafts", draws: 3 }, measures: ["valid_rate", "win_rate"],
    decision: { measure: "valid_rate", comparison: ["d", "u"] }, timeout_s: 30, ...o,
  });

let ws: Workspace;
beforeAll(async () => {
  ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-exp-flow-")), "ws"));
});
afterAll(() => ws.close());

describe("a registered experiment, start to end", () => {
  it("a dev plan is exploratory; its rows give the confirm plan's power line", async () => {
    const dev = await registerExperiment({ workspace: ws, plan: plan({ tasks: ["penguins"], seed: 7 }), ...index });
    expect(dev).toMatchObject({ created: true, registration: { label: "exploratory" } });
    expect(dev.registration.powerLine).toMatch(/^power: no development rows to estimate power from/);
    const r = await runExperiment({ workspace: ws, registrationId: dev.registration.registrationId, evaluate: scripted });
    expect(r).toMatchObject({ runNumber: 1, isRegisteredResult: true, cells: 6, executed: 6 });

    const confirm = await registerExperiment({ workspace: ws, plan: plan(), ...index });
    expect(confirm.registration.label).toBe("registered");
    expect(confirm.plan.tasks).toEqual([
      { id: "cars", packageHash: expect.stringMatching(/^[0-9a-f]{16}$/), leaderboardHash: null, study: "cars", ref: "cars" },
    ]);
    // σ̄² from penguins' dev rows of u and d (one task: τ² not estimable, so 0)
    expect(confirm.registration.powerLine).toMatch(
      new RegExp(
        "^power: with 1 task × 3 draws, the smallest A − B on valid_rate detected at 80 % power \\(two-sided α " +
          "0\\.05\\) is [\\d.]+ \\(σ̄² [\\d.e-]+ within tasks over 1 dev task; τ² 0\\.00 between tasks \\(0 assumed: " +
          "no dev rows of both default and uniform\\)\\)$",
      ),
    );
  });

  it("runs, resumes, re-runs; labels the registered result; logs every look", async () => {
    const { registration: reg } = await registerExperiment({ workspace: ws, plan: plan(), ...index });
    const id = reg.registrationId;
    // A first run that dies after 2 programs: failed, its 2 cells kept.
    executed = 0;
    failAfter = 2;
    await expect(runExperiment({ workspace: ws, registrationId: id, evaluate: scripted, jobs: 1 })).rejects.toThrow(
      "the sandbox went away",
    );
    failAfter = Infinity;
    expect((await listExperimentRuns(ws, id)).map((r) => r.status)).toEqual(["failed"]);
    expect(await readResults(ws, `${id}-r1`)).toHaveLength(2);
    const first = await runExperiment({ workspace: ws, registrationId: id, evaluate: scripted });
    expect(first).toMatchObject({ runId: `${id}-r1`, resumed: true, executed: 4, cells: 6, isRegisteredResult: true });

    const shown = await readExperimentResults(ws, id, { command: "show 1" });
    expect(shown.label).toBe(`registered ${id}`);
    expect(shown.looks.map((l) => l.what)).toEqual([`results of run ${id}-r1: registered ${id}`]);
    expect(shown.summary?.verdict.verdict).toMatch(/^(supported|not-supported)$/);

    const again = await runExperiment({ workspace: ws, registrationId: id, evaluate: scripted });
    expect(again).toMatchObject({ runId: `${id}-r2`, resumed: false, isRegisteredResult: false, executed: 6 });
    // the same draws: a re-run of a deterministic policy reproduces the registered result's cells
    const cells = async (run: string) => (await readResults(ws, run)).map((c) => [c.arm, c.taskId, c.draw, c.testScore]);
    expect(await cells(`${id}-r2`)).toEqual(await cells(`${id}-r1`));
    const rerun = await readExperimentResults(ws, id, { runId: `${id}-r2`, command: "show 2" });
    expect(rerun.label).toBe(`re-run 2 of registered ${id} (not the registered result)`);
    expect((await readExperimentResults(ws, id, { command: "show 3" })).run?.runId).toBe(`${id}-r1`);

    const h = (await experimentHistory(ws)).find((x) => x.registration.registrationId === id)!;
    expect(h.looks).toBe(3);
    expect(h.runs.map((r) => [r.runNumber, r.status, r.isRegisteredResult])).toEqual([
      [1, "completed", true],
      [2, "completed", false],
    ]);
  });

  it("a search plan runs its evolve cells; a re-run gives the same cells", async () => {
    const search = plan({
      arms: [{ name: "u", params: "uniform", harness: "openmle" }, { name: "d", params: "default", harness: "openmle" }],
      level: { kind: "search", seeds: 2, steps: 3 },
    });
    const { registration: reg } = await registerExperiment({ workspace: ws, plan: search, ...index });
    const id = reg.registrationId;
    const side = await runExperiment({ workspace: ws, registrationId: id, evaluate: scripted });
    const single = await runExperiment({ workspace: ws, registrationId: id, evaluate: scripted, jobs: 1 });
    expect([side.cells, single.cells]).toEqual([4, 4]);
    const cells = async (run: string) =>
      (await readResults(ws, run)).map((c) => [c.arm, c.taskId, c.draw, c.testScore, c.validRate]);
    expect(await cells(side.runId)).toEqual(await cells(single.runId));
  });

  it("the same plan is the same registration; a changed plan is a new one", async () => {
    const a = await registerExperiment({ workspace: ws, plan: plan(), ...index });
    const b = await registerExperiment({ workspace: ws, plan: plan(), ...index });
    expect(b).toMatchObject({ created: false, registration: { registrationId: a.registration.registrationId } });
    const c = await registerExperiment({ workspace: ws, plan: plan({ seed: 2 }), ...index });
    expect(c.created).toBe(true);
    expect(c.registration.registrationId).not.toBe(a.registration.registrationId);
  });

  it("refuses an arm trained on a plan task's study; pins a checkpoint's params hash and training tasks", async () => {
    await ws.append("loops", [{ loop_id: "L", train_tasks: JSON.stringify(["penguins"]), heldout_tasks: "[]",
      config: "{}", config_hash: "x", status: "finished", started_at: new Date(0) }]);
    await saveCheckpoint(ws, { name: "L-g1", params: defaultGrammarParams(), parent: "uniform", source: "loop",
      config: { loop: "L" } });
    const arms = [{ name: "u", params: "uniform" as const }, { name: "d", checkpoint: "L-g1" }];
    await expect(registerExperiment({ workspace: ws, plan: plan({ arms, tasks: ["penguins"] }), ...index })).rejects.toThrow(
      /^arm d was trained on penguins, which shares study penguins with the plan's task penguins: measure it on tasks/,
    );
    const ok = await registerExperiment({ workspace: ws, plan: plan({ arms }), ...index });
    expect(ok.plan.arms[1]).toEqual({ name: "d", harness: null, trainingTasks: ["penguins"],
      policy: { kind: "checkpoint", name: "L-g1", paramsHash: expect.stringMatching(/^[0-9a-f]{16}$/) } });
    // The checkpoint replaced by other params: the registered plan no longer runs.
    await saveCheckpoint(ws, { name: "L-g1", params: { ...defaultGrammarParams(), logits: { "draft.tabular.model": { xgboost: 2 } } },
      parent: "uniform", source: "loop", config: { loop: "L" } }, { replace: true });
    await expect(runExperiment({ workspace: ws, registrationId: ok.registration.registrationId, evaluate: scripted }))
      .rejects.toThrow(/^arm d: the params of L-g1 changed since registration \(hash [0-9a-f]{16} → [0-9a-f]{16}\): a changed plan is a new registration/);
    expect(await listExperimentRuns(ws, ok.registration.registrationId)).toEqual([]); // nothing opened
  });

  it("refuses a checkpoint that does not resolve, naming the arm", async () => {
    await expect(
      registerExperiment({ workspace: ws, plan: plan({ arms: [{ name: "u", params: "uniform" }, { name: "d", checkpoint: "g9" }] }), ...index }),
    ).rejects.toThrow(/^arm d: no checkpoint "g9" in /);
  });
});
