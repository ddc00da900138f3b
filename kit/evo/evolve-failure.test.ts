import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { EVOLVE_MAX, EvolveConfig } from "./config.js";
import { evolve } from "./evolve.js";
import { pythonEvaluate } from "./test-helpers/python-evaluator.js";
import { createTinyPolicy } from "./test-helpers/tiny-policy.js";
import { writeTinyTask } from "./test-helpers/tiny-task.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));

// Issue 25, break 8: `evolve --steps 1e12` crashed Node after the run was opened, leaving it `running`.
describe("a failing evolve leaves no run running and no lock", () => {
  const task = writeTinyTask(tmp("evo-fail-task-"));

  it("bounds steps, workers and islands in the config, so the library cannot be crashed either", async () => {
    expect(EvolveConfig.safeParse({ steps: 1e12 }).success).toBe(false);
    expect(EvolveConfig.safeParse({ steps: EVOLVE_MAX.steps }).success).toBe(true);
    expect(EvolveConfig.safeParse({ workers: EVOLVE_MAX.workers + 1 }).success).toBe(false);
    expect(EvolveConfig.safeParse({ islands: EVOLVE_MAX.islands + 1 }).success).toBe(false);
    const dir = join(tmp("evo-fail-ws-"), "ws");
    const ws = await openWorkspace(dir);
    try {
      await expect(evolve({ task, policy: createTinyPolicy(), workspace: ws, evaluate: pythonEvaluate, config: { steps: 1e12 } })).rejects.toThrow(/steps/);
      expect(await ws.query("SELECT run_id FROM runs")).toEqual([]); // refused before a run was opened
    } finally {
      ws.close();
    }
  });

  it.each([
    ["before the first step (the run-start event throws)", (e: { type: string }) => { if (e.type === "run-start") throw new Error("listener broke"); }, undefined],
    ["in a step (the evaluator throws)", undefined, () => Promise.reject(new Error("evaluator broke"))],
  ])("a failure %s ends the run failed", async (_, onEvent, evaluate) => {
    const dir = join(tmp("evo-fail-ws-"), "ws");
    const ws = await openWorkspace(dir);
    try {
      await expect(evolve({ task, policy: createTinyPolicy(), workspace: ws, evaluate: evaluate ?? pythonEvaluate, onEvent, config: { steps: 3 } })).rejects.toThrow(/broke/);
      const runs = await ws.query<{ status: string; ended_at: unknown; summary: string }>("SELECT status, ended_at, summary FROM runs");
      expect(runs).toHaveLength(1);
      expect(runs[0]!.status).toBe("failed");
      expect(runs[0]!.ended_at).not.toBeNull();
      expect(JSON.parse(runs[0]!.summary).error).toMatch(/broke/);
    } finally {
      ws.close();
    }
    expect(existsSync(join(dir, "openmle.lock"))).toBe(false);
    (await openWorkspace(dir)).close(); // the writer lock is free
  });
});
