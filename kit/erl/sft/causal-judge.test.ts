import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTinyTask } from "../../evo/test-helpers/tiny-task.js";
import { mkNode } from "../../evo/test-helpers/make-node.js";
import { createOpenAIModel, startReplayServer, replies } from "../../llm/index.js";
import { openWorkspace } from "../../store/index.js";
import { collectSft, loadDataset, parseJudgeVerdicts, renderJudgePrompt, JudgeError, ErlError } from "../index.js";
import { writeStoredRun } from "./test-helpers/stored-run.js";

const tmp = () => mkdtempSync(join(tmpdir(), "erl-judge-"));

describe("parseJudgeVerdicts", () => {
  const table: [string, string, number[], [number, boolean][]][] = [
    ["bare JSON", '{"steps":[{"step":1,"keep":true,"reason":"r"}]}', [1], [[1, true]]],
    ["fenced JSON after thinking", '<think>hmm {"steps":[]}</think>Here:\n```json\n{"steps":[{"step":1,"keep":false,"reason":"retry"},{"step":2,"keep":true,"reason":"fix"}]}\n```', [1, 2], [[1, false], [2, true]]],
    ["step numbers as strings", '{"steps":[{"step":"2","keep":true}]}', [2], [[2, true]]],
  ];
  for (const [name, text, decide, want] of table) it(name, () => expect(parseJudgeVerdicts(text, decide).map((v) => [v.index, v.keep])).toEqual(want));
  it("a missing verdict or no JSON is a JudgeError", () => {
    expect(() => parseJudgeVerdicts('{"steps":[{"step":1,"keep":true}]}', [1, 2])).toThrow(/no verdict for step\(s\) 2/);
    expect(() => parseJudgeVerdicts("I keep everything", [1])).toThrow(JudgeError);
  });
});

/** draft n0 fails → debug n1 fails → debug n2 scores 0.95 (top of the run; graded 0.9, within the 12 % filter);
 * draft n3 0.6; draft n4 0.7. `n2Test` replaces n2's graded test score. */
function tree(n2Test: number | null = 0.9) {
  return [
    mkNode({ nodeId: "n0", step: 0, status: "runtime_error", validScore: null, errorSignature: "KeyError", code: "import pandas as pd\nx = 1\n" }),
    mkNode({ nodeId: "n1", step: 1, operator: "debug", parents: ["n0"], status: "runtime_error", validScore: null, errorSignature: "KeyError", code: "import pandas as pd\nx = 2\n" }),
    mkNode({ nodeId: "n2", step: 2, operator: "debug", parents: ["n1"], validScore: 0.95, testScore: n2Test, code: "import pandas as pd\nx = 3\n" }),
    mkNode({ nodeId: "n3", step: 3, validScore: 0.6, testScore: 0.6, code: "y = 1\n" }),
    mkNode({ nodeId: "n4", step: 4, validScore: 0.7, testScore: 0.7, code: "y = 2\n" }),
  ];
}

describe("the causal-inheritance judge through the replay server", () => {
  it("keeps the steps it says to keep, caches verdicts, and a failing endpoint stores nothing", async () => {
    const dir = tmp();
    const task = writeTinyTask(join(dir, "task"));
    const ws = await openWorkspace(join(dir, "ws"));
    const verdict = '{"steps":[{"step":1,"keep":true,"reason":"introduces the pandas pipeline the endpoint keeps"},{"step":2,"keep":false,"reason":"blind retry"}]}';
    const server = await startReplayServer([replies.text(verdict)]);
    try {
      await writeStoredRun(ws, "r1", task, tree());
      const judge = createOpenAIModel({ baseURL: server.baseURL, model: "replay-model", maxRetries: 0 });
      const res = await collectSft({ workspace: ws, dataset: "j1", runs: ["r1"], tasks: [task], judge });
      // Threshold: top 25 % of {0.95, 0.6, 0.7} → s-quantile at h = 2·0.75 = 1.5 → 0.825; only n2's segment reaches it.
      expect(res.segments.map((s) => [s.steps.join(">"), s.reason])).toEqual([["n0>n1>n2", "accepted"], ["n3", "below-threshold"], ["n4", "below-threshold"]]);
      expect(res.segments[0]!.threshold).toBeCloseTo(0.825, 12);
      expect(res.segments[0]!.verdicts.map((v) => [v.nodeId, v.keep])).toEqual([["n0", true], ["n1", false]]);
      expect(res.examples.map((e) => [e.sourceNode, e.operator])).toEqual([["n0", "draft"], ["n2", "debug"]]);
      expect(res.judge).toBe("llm:replay-model");
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.messages[1]!.content).toContain("Decide steps: 1, 2.");
      const stored = await loadDataset(ws, "j1");
      expect(stored.map((e) => [e.judge, e.judgeReason])).toEqual([["llm:replay-model", "introduces the pandas pipeline the endpoint keeps"], ["llm:replay-model", "endpoint"]]);
      // Same segment again: answered from the cache, no request.
      await collectSft({ workspace: ws, dataset: "j1", runs: ["r1"], tasks: [task], judge, replace: true });
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
      ws.close();
    }
    // An endpoint that fails mid-judging: one line naming the fix; the stored dataset is unchanged.
    const ws2 = await openWorkspace(join(dir, "ws2"));
    const down = await startReplayServer([replies.error(500, "boom")]);
    try {
      await writeStoredRun(ws2, "r1", task, tree());
      const judge = createOpenAIModel({ baseURL: down.baseURL, model: "m", maxRetries: 0 });
      const err = await collectSft({ workspace: ws2, dataset: "j2", runs: ["r1"], tasks: [task], judge }).catch((e) => e);
      expect(err).toBeInstanceOf(JudgeError);
      expect(err.message).toMatch(/judge endpoint failed .*--judge-base-url.*no dataset was stored/);
      expect(err.message).not.toContain("\n");
      expect(await ws2.query("SELECT * FROM datasets")).toHaveLength(0);
      // Without an endpoint the judge is skipped: every step of the accepted segment kept.
      const res = await collectSft({ workspace: ws2, dataset: "j2", runs: ["r1"], tasks: [task] });
      expect(res.examples.map((e) => e.sourceNode)).toEqual(["n0", "n1", "n2"]);
      expect((await loadDataset(ws2, "j2"))[0]!.judge).toBe("skipped");
    } finally {
      await down.close();
      ws2.close();
    }
  }, 60_000);

  it("the baseline filter rejects an accepted endpoint whose graded score is off by more than 12 % or missing", async () => {
    const dir = tmp();
    const task = writeTinyTask(join(dir, "task"));
    const ws = await openWorkspace(join(dir, "ws"));
    try {
      // n2 claims 0.95, graded 0.8: d = 0.15 / 1 (accuracy's range) > 0.12; graded null: no test score.
      await writeStoredRun(ws, "gap", task, tree(0.8).map((n) => ({ ...n, runId: "gap" })));
      await writeStoredRun(ws, "ungraded", task, tree(null).map((n) => ({ ...n, runId: "ungraded" })));
      const res = await collectSft({ workspace: ws, dataset: "f1", runs: ["gap", "ungraded"], tasks: [task] });
      expect(res.segments.filter((s) => s.endpoint === "n2").map((s) => [s.runId, s.accepted, s.reason])).toEqual([["gap", false, "validation-test-gap"], ["ungraded", false, "no-test-score"]]);
      expect(res.segments.find((s) => s.runId === "gap" && s.endpoint === "n2")!.gap).toBeCloseTo(0.15, 12);
      expect(res.dropped.baselineFilter).toBe(2);
      expect(res.examples).toHaveLength(0);
      // Off: the segment is accepted again.
      const off = await collectSft({ workspace: ws, dataset: "f2", runs: ["gap"], tasks: [task], config: { maxValidationTestGap: null } });
      expect(off.segments[0]!.reason).toBe("accepted");
      expect(off.examples.map((e) => e.sourceNode)).toEqual(["n0", "n1", "n2"]);
    } finally {
      ws.close();
    }
  });

  it("bad input: a run with no nodes, a run without valid scores or leaderboard, an unknown run", async () => {
    const dir = tmp();
    const task = writeTinyTask(join(dir, "task"));
    const ws = await openWorkspace(join(dir, "ws"));
    try {
      await writeStoredRun(ws, "empty", task, []);
      await writeStoredRun(ws, "failed", task, [mkNode({ nodeId: "n0", status: "runtime_error", validScore: null })].map((n) => ({ ...n, runId: "failed" })));
      await expect(collectSft({ workspace: ws, dataset: "x", runs: ["empty"], tasks: [task] })).rejects.toThrow(/run empty has no nodes: drop it from --runs/);
      await expect(collectSft({ workspace: ws, dataset: "x", runs: ["failed"], tasks: [task] })).rejects.toThrow(/no valid scores and the task has no leaderboard/);
      await expect(collectSft({ workspace: ws, dataset: "x", runs: ["nope"], tasks: [task] })).rejects.toThrow(ErlError);
      // --all-runs skips both and says why; an empty dataset is still a dataset.
      const res = await collectSft({ workspace: ws, dataset: "x", runs: "all", tasks: [task] });
      expect(res.skippedRuns.map((s) => s.runId).sort()).toEqual(["empty", "failed"]);
      expect(await ws.query("SELECT * FROM datasets")).toHaveLength(0);
    } finally {
      ws.close();
    }
  });
});
