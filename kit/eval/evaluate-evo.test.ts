import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { evolve } from "../evo/index.js";
import { pythonEvaluate } from "../evo/test-helpers/python-evaluator.js";
import { createTinyPolicy } from "../evo/test-helpers/tiny-policy.js";
import { writeTinyTask } from "../evo/test-helpers/tiny-task.js";
import { openWorkspace } from "../store/index.js";
import { evaluate, loadSearchEfficiency } from "./index.js";

// Real evolve runs (kit/evo's tiny policy: real Python programs, no LLM) read back by evaluate().
describe("evaluate() over real evolve runs", () => {
  test("two seeds of one setting form one group with k = 2; scores are the champions' test scores", async () => {
    const task = writeTinyTask(mkdtempSync(join(tmpdir(), "eval-evo-task-")));
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "eval-evo-")), "ws"));
    try {
      const results = [];
      for (const seed of [1, 2]) results.push(await evolve({ task, policy: createTinyPolicy(), workspace: ws, evaluate: pythonEvaluate, config: { harness: "openmle", steps: 6, seed, gen0Drafts: 3 } }));
      const ev = await evaluate(ws);
      expect(ev.groups).toHaveLength(1);
      expect(ev.groups[0]!.k).toBe(2);
      expect(ev.runs.map((r) => r.score).sort()).toEqual(results.map((r) => r.summary.champion!.testScore).sort());
      const eff = await loadSearchEfficiency(ws);
      expect(eff.runs.map((r) => r.nodes)).toEqual([6, 6]);
    } finally {
      ws.close();
    }
  });
});
