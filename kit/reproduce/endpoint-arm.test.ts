// An endpoint arm (the paper preset's arms: an OpenAI-compatible server per model) on a real HTTP server on
// 127.0.0.1 (kit/llm's replay server): the arm's policy asks that server, under the endpoint's name as model id.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIModel, recordingModel, startReplayServer, type ReplayServer } from "../llm/index.js";
import { openWorkspace } from "../store/index.js";
import { ExperimentSpec } from "./experiment-spec.js";
import { presetConfig, resolveTaskSet, runSearchExperiment } from "./run-search.js";

const spec = ExperimentSpec.parse({
  id: "endpoint-probe", title: "An endpoint arm", paperItem: "test", kind: "search", question: "Does it ask the server?",
  metrics: ["valid-rate"], rows: "arm", reference: [{ row: "none", values: {} }],
  presets: { smoke: { tasks: { from: "builtin", ids: ["penguins"] }, repeats: 1, steps: 2, arms: [{ id: "served", label: "served model", policy: "endpoint:probe-35b", harness: "openmle" }] } },
});

describe("endpoint arms", () => {
  let server: ReplayServer;
  // Replies without a code block: every node is missing_code, so nothing runs in the sandbox.
  beforeAll(async () => (server = await startReplayServer([{ kind: "text", text: "no program today" }], { onExhausted: "repeat-last" })));
  afterAll(async () => server.close());

  it("the arm's policy is the LLM policy on its endpoint; every call is recorded", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-endpoint-arm-")), "ws"));
    try {
      const model = recordingModel(createOpenAIModel({ baseURL: server.baseURL, model: "probe-35b" }), ws, { purpose: "operator" });
      const tasks = await resolveTaskSet(spec.presets.smoke!.tasks);
      const [cell] = await runSearchExperiment({ workspace: ws, spec, preset: "smoke", tasks, endpoints: new Map([["probe-35b", model]]) });
      expect(cell).toMatchObject({ arm: "served", task: "penguins", validRate: 0, testScore: null });
      expect(server.requests.length).toBeGreaterThanOrEqual(2);
      expect((server.requests[0]!.body as { model: string }).model).toBe("probe-35b");
      const calls = await ws.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM llm_calls WHERE run_id = $r", { r: cell!.runId });
      expect(calls[0]!.n).toBe(server.requests.length);
    } finally {
      ws.close();
    }
  }, 120_000);

  it("an endpoint arm without its endpoint says which flag to pass", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-endpoint-arm-")), "ws"));
    try {
      await expect(runSearchExperiment({ workspace: ws, spec, preset: "smoke", tasks: await resolveTaskSet(spec.presets.smoke!.tasks) }))
        .rejects.toThrow(/arm served is served by endpoint probe-35b: pass --endpoint probe-35b=URL/);
    } finally {
      ws.close();
    }
  });

  it.each([
    ["smoke", {}, {}],
    ["laptop", {}, {}],
    ["paper", { hoursPerTask: 12, gpuCapGiB: 12 }, { preset: "paper", maxWallS: 43_200, gpus: 1 }],
    ["paper", {}, { preset: "paper" }],
  ] as const)("presetConfig(%s, %j)", (preset, p, config) => {
    const base = { arms: [], tasks: { from: "none" }, repeats: 1, steps: 1, group: 1, groupsPerStep: 1 } as const;
    expect(presetConfig(preset, { ...base, arms: [...base.arms], ...p })).toEqual(config);
  });

  it("the paper preset's MLE-bench Lite tasks are imported packages; missing ones say how to import them", async () => {
    await expect(resolveTaskSet({ from: "mlebench-lite" })).rejects.toThrow(
      /the paper preset needs the 22 MLE-bench Lite packages: import each with `openmle task import-mlebench .* --mlebench-dir DIR/);
    const dir = mkdtempSync(join(tmpdir(), "openmle-lite-"));
    await expect(resolveTaskSet({ from: "mlebench-lite" }, { mlebenchDir: dir })).rejects.toThrow(/lacks 22 of the 22 MLE-bench Lite packages \(aerial-cactus-identification, /);
  });
});
