import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../../store/index.js";
import { ParentStore } from "./parent-store.js";
import { readResumeState, storedStepBatches } from "./rl-store.js";
import { restoreSeedTestScores } from "./seed-parents.js";
import { metaTask } from "../../policy/grammar/test-helpers/tasks.js";

const view = (id: string, code: string) => ({ nodeId: id, operator: "draft" as const, code, plan: "", status: "success" as const, validScore: 0.8, errorSignature: null });

describe("readResumeState / restoreSeedTestScores", () => {
  it("gives parent states born in the run their rollout's graded test score back (flagged ones: none)", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "rl-store-")), "ws"));
    try {
      const rollout = (idx: number, test: number | null, hack: string | null) => ({ run_id: "r", group_id: "g00001", idx, task_id: "t", operator: "draft", code: `c${idx}`, status: "success", test_score: test, reward: 0.5, hack_check: hack });
      await ws.append("rl_rollouts", [rollout(0, 0.8, null), rollout(1, 0.9, "sample_submission"), rollout(2, null, null)]);
      const s = new ParentStore(10);
      s.add("t", [
        { id: "g00001-0", view: view("g00001-0", "c0"), reward: 0.9 },
        { id: "g00001-1", view: view("g00001-1", "c1"), reward: -0.5 },
        { id: "g00001-2", view: view("g00001-2", "c2"), reward: 0 },
        { id: "evo/n3", view: view("evo/n3", "c3"), reward: 0.4 },
      ]);
      await ws.append("rl_parent_states", s.toRows("r"));
      const st = await readResumeState(ws, "r", () => true, 10);
      const scores = Object.fromEntries(st.store.states("t").map((x) => [x.id, x.testScore]));
      expect(scores).toEqual({ "g00001-0": 0.8, "g00001-1": null, "g00001-2": null, "evo/n3": null });
      expect(st.history.get("t")).toBeUndefined(); // no consumed groups (rl_groups is empty)
      // an evolve-seeded state gets its node's graded test score back (failed nodes: none)
      await ws.append("runs", [{ run_id: "evo", task_id: "t" }]);
      await ws.append("nodes", [
        { run_id: "evo", node_id: "n3", step: 3, operator: "draft", code: "c3", status: "success", test_score: 0.7 },
        { run_id: "evo", node_id: "n4", step: 4, operator: "draft", code: "c4", status: "runtime_error", test_score: 0.1 },
      ]);
      await restoreSeedTestScores(ws, metaTask({ modality: "tabular", id: "t" }), st.store);
      expect(st.store.states("t").find((x) => x.id === "evo/n3")!.testScore).toBe(0.7);
      const seeded = new ParentStore(10);
      seeded.add("t", [{ id: "evo/n4", view: view("evo/n4", "c4"), reward: 0 }]);
      await restoreSeedTestScores(ws, metaTask({ modality: "tabular", id: "t" }), seeded);
      expect(seeded.states("t")[0]!.testScore).toBeNull();
    } finally {
      ws.close();
    }
  }, 60_000);

  it("storedStepBatches: each consumed step's samples in order, with the checkpoint it wrote; dropped groups left out", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "rl-store-")), "ws"));
    try {
      const choice = (v: string) => JSON.stringify([{ name: "draft.tabular.model", value: v, options: ["a", "b"] }]);
      const rollout = (group: string, idx: number, adv: number) => ({ run_id: "r", group_id: group, idx, task_id: "t", operator: "draft", code: `c${idx}`, status: "success", choices: choice(idx ? "b" : "a"), old_log_prob: -0.7, advantage: adv });
      await ws.append("rl_groups", [
        { run_id: "r", group_id: "g2", task_id: "t", operator: "draft", consumed_step: 2, status: "consumed" },
        { run_id: "r", group_id: "g1", task_id: "t", operator: "draft", consumed_step: 1, status: "consumed" },
        { run_id: "r", group_id: "g3", task_id: "t", operator: "draft", consumed_step: 2, status: "dropped" },
      ]);
      await ws.append("rl_rollouts", [rollout("g2", 0, 0.5), rollout("g1", 1, -1), rollout("g1", 0, 1), rollout("g3", 0, 2)]);
      await ws.append("rl_steps", [{ run_id: "r", step: 1, checkpoint: "r-step1" }, { run_id: "r", step: 2, checkpoint: "r-step2" }]);
      const b = await storedStepBatches(ws, "r");
      expect(b.map((x) => [x.step, x.checkpoint, x.samples.map((s) => s.advantage)])).toEqual([
        [1, "r-step1", [1, -1]],
        [2, "r-step2", [0.5]],
      ]);
      expect(b[0]!.samples[0]!.choices[0]).toMatchObject({ value: "a", options: ["a", "b"] });
      expect(b[0]!.samples[0]!.oldLogProb).toBe(-0.7);
    } finally {
      ws.close();
    }
  }, 60_000);
});
