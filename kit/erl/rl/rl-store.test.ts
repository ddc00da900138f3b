import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../../store/index.js";
import { ParentStore } from "./parent-store.js";
import { readResumeState } from "./rl-store.js";
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
      const st = await readResumeState(ws, "r", new Map([["t", true]]), 10);
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
});
