import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTask } from "../../gym/index.js";
import { TINY_TASK_DIR } from "../../sandbox/test-helpers.js";
import { probeBwrap } from "../../sandbox/index.js";
import { openWorkspace } from "../../store/index.js";
import { loadCheckpoint } from "../checkpoints.js";
import { trainRL, type RlEvent } from "./train-rl.js";

const noBwrap = probeBwrap();
if (noBwrap) process.stderr.write(`SKIP trainRL sandbox tests: bubblewrap cannot run here (${noBwrap}); install bubblewrap (scripts/setup.sh).\n`);

const tmp = () => mkdtempSync(join(tmpdir(), "rl-e2e-"));
const config = { steps: 2, group: 2, workers: 2, perRunTimeoutS: 60, memoryMb: 2048, seed: 3 };

describe.skipIf(!!noBwrap)("trainRL end to end: grammar policy, real sandbox", () => {
  it("sync: every step stores a checkpoint, its metrics, groups and rollouts", async () => {
    const mode = "sync";
    const dir = tmp();
    const task = await loadTask(TINY_TASK_DIR);
    const ws = await openWorkspace(join(dir, "ws"));
    try {
      const events: RlEvent[] = [];
      const r = await trainRL({ workspace: ws, tasks: [task], to: "rl-tiny", config: { ...config, mode }, onEvent: (e) => events.push(e) });
      expect(r.steps.map((s) => s.step)).toEqual([1, 2]);
      expect(r.perTask).toEqual({ [task.meta.id]: 2 });
      const steps = await ws.query<{ step: number; checkpoint: string; valid_rate: number; mean_reward: number }>("SELECT * FROM rl_steps ORDER BY step");
      expect(steps.map((s) => s.checkpoint)).toEqual(["rl-tiny-step1", "rl-tiny-step2"]);
      expect(steps.every((s) => s.valid_rate > 0 && Number.isFinite(s.mean_reward))).toBe(true);
      const rows = await ws.query<{ n: number; tests: number }>("SELECT count(*)::INTEGER AS n, count(test_score)::INTEGER AS tests FROM rl_rollouts");
      expect(rows[0]!.n).toBe(4);
      expect(rows[0]!.tests).toBeGreaterThan(0);
      expect((await loadCheckpoint(ws, "rl-tiny")).source).toBe("rl");
      expect(events.filter((e) => e.type === "step")).toHaveLength(2);
      const msgs = await ws.query<{ messages: string }>("SELECT messages FROM rl_groups LIMIT 1");
      expect(JSON.parse(msgs[0]!.messages)[0].role).toBe("system");
    } finally {
      ws.close();
    }
  }, 120_000);

  it("async: a killed run resumes from its last step without losing or double-counting groups", async () => {
    const dir = tmp();
    const task = await loadTask(TINY_TASK_DIR);
    const ws = await openWorkspace(join(dir, "ws"));
    try {
      const ac = new AbortController();
      const cfg = { ...config, steps: 2, mode: "async" as const, inFlightGroups: 1 };
      const first = await trainRL({ workspace: ws, tasks: [task], to: "rl-k", config: cfg, runId: "rk", signal: ac.signal, onEvent: (e) => { if (e.type === "step") ac.abort(); } });
      expect(first.steps).toHaveLength(1);
      expect((await ws.query<{ status: string }>("SELECT status FROM rl_runs"))[0]!.status).toBe("killed");
      const second = await trainRL({ workspace: ws, tasks: [task], to: "rl-k", resume: "rk" });
      expect(second.steps.map((s) => s.step)).toEqual([2]);
      const groups = await ws.query<{ consumed_step: number; n: number }>("SELECT consumed_step, count(*)::INTEGER AS n FROM rl_groups WHERE status = 'consumed' GROUP BY 1 ORDER BY 1");
      expect(groups).toEqual([{ consumed_step: 1, n: 1 }, { consumed_step: 2, n: 1 }]);
      const ids = await ws.query<{ group_id: string }>("SELECT group_id FROM rl_groups");
      expect(new Set(ids.map((g) => g.group_id)).size).toBe(ids.length);
      expect(second.perTask).toEqual({ [task.meta.id]: 2 });
      expect((await ws.query<{ checkpoint: string }>("SELECT checkpoint FROM rl_steps ORDER BY step")).map((r) => r.checkpoint)).toEqual(["rl-k-step1", "rl-k-step2"]);
      expect((await loadCheckpoint(ws, "rl-k")).parent).toBe("rl-k-step2");
      expect((await ws.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM rl_rollouts"))[0]!.n).toBe(4);
    } finally {
      ws.close();
    }
  }, 120_000);
  it("static bounds: refused without a worst bound; with the trivial baseline, the static rule on a fixed scale", async () => {
    const task = await loadTask(TINY_TASK_DIR);
    const ws = await openWorkspace(join(tmp(), "ws"));
    try {
      const cfg = { ...config, steps: 1, mode: "sync" as const, bounds: { anchor: "static" as const } };
      // the tiny task has no leaderboard: with trivialWorst "never" the static rule has no W_static → refused
      await expect(trainRL({ workspace: ws, tasks: [task], to: "rl-s0", config: { ...cfg, trivialWorst: "never" } })).rejects.toThrow(/bounds\.anchor "static" needs both static bounds.*leaderboard\.csv/);
      expect(await ws.query("SELECT * FROM rl_runs")).toEqual([]);
      await trainRL({ workspace: ws, tasks: [task], to: "rl-s", config: cfg, runId: "rs" });
      const [b] = await ws.query<{ worst_from: string; trivial_score: number; static_worst: number; static_best: number; higher_is_better: boolean }>("SELECT * FROM rl_task_bounds WHERE run_id = 'rs'");
      expect(b!.worst_from).toBe("trivial");
      expect(Number.isFinite(b!.trivial_score)).toBe(true);
      expect(b!.static_worst).toBeCloseTo(b!.higher_is_better ? b!.trivial_score : -b!.trivial_score, 12);
      // the static rule uses B_static and W_static alone
      const groups = await ws.query<{ best_bound: number; worst_bound: number }>("SELECT best_bound, worst_bound FROM rl_groups WHERE run_id = 'rs'");
      expect(groups.length).toBeGreaterThan(0);
      for (const g of groups) expect([g.best_bound, g.worst_bound]).toEqual([b!.static_best, b!.static_worst]);
    } finally {
      ws.close();
    }
  }, 120_000);
});
