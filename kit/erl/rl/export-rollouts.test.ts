import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../../store/index.js";
import { exportRollouts } from "./export-rollouts.js";

describe("exportRollouts", () => {
  it("writes one row per consumed rollout to JSONL and Parquet, with the rendered prompt", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rl-export-"));
    let ws = await openWorkspace(join(dir, "ws"));
    try {
      await ws.append("rl_runs", [{ run_id: "r1", tasks: "[\"t\"]", status: "finished" }]);
      const messages = [{ role: "system", content: "You write programs." }, { role: "user", content: "Draft one." }];
      await ws.append("rl_groups", [{ run_id: "r1", group_id: "g0", task_id: "t", operator: "draft", policy_version: 0, consumed_step: 1, status: "consumed", messages: JSON.stringify(messages) }]);
      await ws.append("rl_rollouts", [0, 1].map((idx) => ({
        run_id: "r1", group_id: "g0", idx, task_id: "t", operator: "draft", code: `print(${idx})`, old_log_prob: -3 - idx, status: "success",
        reward: 1 - idx, advantage: idx ? -1 : 1, grpo_advantage: idx ? -0.7 : 0.7,
      })));
      const j = await exportRollouts(ws, "r1", join(dir, "out", "r1.jsonl"));
      expect(j.rows).toBe(2);
      const lines = readFileSync(j.file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(lines[1]).toMatchObject({ task_id: "t", operator: "draft", completion: "print(1)", reward: 0, advantage: -1, group_id: "g0", old_log_prob: -4, step: 1 });
      const m = typeof lines[0].messages === "string" ? JSON.parse(lines[0].messages) : lines[0].messages;
      expect(m).toEqual(messages);
      const p = await exportRollouts(ws, "r1", join(dir, "r1.parquet"));
      const back = await ws.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM read_parquet('${p.file}') WHERE completion LIKE 'print%'`);
      expect(back[0]!.n).toBe(2);
      ws.close();
      const ro = await openWorkspace(join(dir, "ws"), { readOnly: true });
      expect((await exportRollouts(ro, "r1", join(dir, "ro.jsonl"))).rows).toBe(2);
      ro.close();
      ws = await openWorkspace(join(dir, "ws"));
      await expect(exportRollouts(ws, "nope", join(dir, "x.jsonl"))).rejects.toThrow(/it has: r1/);
      await expect(exportRollouts(ws, "r1", join(dir, "x.csv"))).rejects.toThrow(/parquet or \*\.jsonl/);
    } finally {
      ws.close();
    }
  });
});
