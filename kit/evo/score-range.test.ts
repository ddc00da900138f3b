import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTask, metricRange, type TaskPackage } from "../gym/index.js";
import type { Policy } from "../policy/types.js";
import { classifyExecution, probeBwrap, runSandbox, type ProcessOutcome } from "../sandbox/index.js";
import { program, TINY_TASK_DIR } from "../sandbox/test-helpers.js";
import { openWorkspace } from "../store/index.js";
import { evolve } from "./evolve.js";

// Issue 10 point 11: a program that prints `Final Validation Score: 1e308` on an accuracy task
// was taken at its word, so search (and any reward built on the score) could be gamed by a print.
const ok: ProcessOutcome = { exitCode: 0, signal: null, timedOut: false, oomKilled: false, sandboxError: null, stdout: "", stderr: "" };
const say = (v: string) => ({ ...ok, stdout: `Final Validation Score: ${v}\n` });

describe("validation scores outside the metric's range count as no score", () => {
  // [metric, printed value, kept score (null = dropped)]
  const CASES: [string, string, number | null][] = [
    ["accuracy", "1e308", null],
    ["accuracy", "1.5", null],
    ["accuracy", "-0.01", null],
    ["accuracy", "0.93", 0.93],
    ["accuracy", "1.0000000000000002", 1.0000000000000002], // floating-point noise, not a lie
    ["roc_auc", "0", 0],
    ["rmse", "-1e308", null],
    ["rmse", "1e308", 1e308], // a terrible but possible RMSE
    ["log_loss", "-0.5", null],
    ["r2", "-40", -40],
    ["r2", "1.2", null],
    ["qwk", "-1.5", null],
    ["a-metric-the-registry-does-not-know", "1e308", 1e308], // no known range: not checked
  ];
  it.each(CASES)("%s: %s", (metric, printed, kept) => {
    const c = classifyExecution({ codeMissing: false, outcome: say(printed), submissionFound: true, score: { ok: true, score: 0.7 }, validRange: metricRange(metric) });
    expect(c.status).toBe("success");
    expect(c.testScore).toBe(0.7);
    expect(c.validScore).toBe(kept);
    expect(c.errorSignature).toBe(kept === null ? "score_out_of_range" : null);
    if (kept === null) expect(c.warnings.join(" ")).toContain(`score_out_of_range: the program reported Final Validation Score ${Number(printed)},`);
  });

  it("a failed run's out-of-range score is dropped too, keeping the failure's own signature", () => {
    const c = classifyExecution({ codeMissing: false, outcome: { ...say("1e308"), exitCode: 1, stderr: "Traceback (most recent call last):\nValueError: x\n" }, validRange: [0, 1] });
    expect(c).toMatchObject({ status: "runtime_error", validScore: null, errorSignature: expect.not.stringMatching(/range/) });
    expect(c.warnings[0]).toMatch(/^score_out_of_range/);
  });
});

const noBwrap = probeBwrap();
describe.skipIf(!!noBwrap)("through the real sandbox and the search", () => {
  const liar = program("success").replace(/print\(f"Final Validation Score: .*\n/, 'print("Final Validation Score: 1e308")\n');

  it("the record is flagged, and the search neither admits, rewards nor crowns the liar", async () => {
    const fixture = await loadTask(TINY_TASK_DIR);
    const task: TaskPackage = { ...fixture, meta: { ...fixture.meta, metric: "accuracy" } };
    expect(liar).toContain("1e308");
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "openmle-range-")), "ws"));
    try {
      // Step 0 lies, step 1 is the honest program.
      let calls = 0;
      const policy: Policy = {
        name: "liar-then-honest",
        async propose() {
          const code = calls++ === 0 ? liar : program("success");
          return { plan: "fixed", code, usage: { promptChars: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0 } };
        },
      };
      const res = await evolve({
        task, policy, workspace: ws, config: { steps: 2, gen0Drafts: 2, perRunTimeoutS: 60, memoryMb: 1024 },
        evaluate: (job) => runSandbox({ ...job, workspace: ws }),
      });
      const [lie, honest] = res.nodes;
      expect(lie).toMatchObject({ status: "success", validScore: null, fitness: null, admitted: false, errorSignature: "score_out_of_range" });
      expect(lie!.testScore).toBeGreaterThan(0.5); // the submission itself was scored on the hidden test
      expect(honest!.validScore).toBeGreaterThan(0.5);
      expect(honest!.validScore).toBeLessThanOrEqual(1);
      expect(res.champion?.nodeId).toBe(honest!.nodeId);
      const rows = await ws.query<{ node_id: string; reward: number; error_signature: string | null; valid_score: number | null }>(
        `SELECT n.node_id, n.reward, e.error_signature, e.valid_score FROM nodes n JOIN executions e USING (execution_id) ORDER BY n.step`);
      expect(rows[0]).toMatchObject({ reward: 0, error_signature: "score_out_of_range", valid_score: null });
    } finally {
      ws.close();
    }
  }, 240_000);
});
