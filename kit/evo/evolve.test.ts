import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { evolve } from "./evolve.js";
import type { EvoEvent } from "./events.js";
import { pythonEvaluate } from "./test-helpers/python-evaluator.js";
import { createTinyPolicy } from "./test-helpers/tiny-policy.js";
import { writeTinyTask } from "./test-helpers/tiny-task.js";
import { HARNESSES } from "./config.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const root = new URL("../..", import.meta.url).pathname;
const fingerprint = (rows: Record<string, unknown>[]) => rows.map((r) => `${r.node_id}|${r.operator}|${(r.parents as string[]).join("+")}|${r.status}|${r.valid_score}`);

describe("evolve with real Python programs (tiny policy)", () => {
  const task = writeTinyTask(tmp("evo-task-"));

  it.each(HARNESSES)("%s runs end to end and writes nodes, executions and cards", async (harness) => {
    const ws = await openWorkspace(join(tmp("evo-ws-"), "ws"));
    try {
      const events: EvoEvent[] = [];
      const res = await evolve({ task, policy: createTinyPolicy(), workspace: ws, evaluate: pythonEvaluate, config: { harness, steps: 8, seed: 3, gen0Drafts: 3 }, onEvent: (e) => events.push(e) });
      expect(res.nodes).toHaveLength(8);
      expect(res.champion).not.toBeNull();
      expect(res.summary.champion!.testScore).toBeGreaterThan(0.5);
      const counts = await ws.query<{ n: number; c: number; e: number }>(
        "SELECT (SELECT count(*) FROM nodes) AS n, (SELECT count(*) FROM cards) AS c, (SELECT count(*) FROM executions) AS e");
      expect(counts[0]).toEqual({ n: 8, c: 8, e: 8 });
      const run = await ws.query<{ status: string; summary: string }>("SELECT status, summary FROM runs");
      expect(run[0]!.status).toBe("finished");
      expect(JSON.parse(run[0]!.summary).champion.nodeId).toBe(res.champion!.nodeId);
      // The final champion is also in columns of runs (migration 7); its card was rank 1 when written.
      const c = res.champion!;
      expect(await ws.query("SELECT champion_node_id, champion_valid_score, champion_test_score, champion_fitness FROM runs"))
        .toEqual([{ champion_node_id: c.nodeId, champion_valid_score: c.validScore, champion_test_score: c.testScore, champion_fitness: c.fitness }]);
      expect(await ws.query("SELECT champion_at_write FROM cards WHERE node_id = $n", { n: c.nodeId })).toEqual([{ champion_at_write: true }]);
      // Every card carries its prompt's size (migration 10); a child's prompt shows its parent's code, a draft's none.
      const sizes = await ws.query<{ operator: string; chars: number }>(
        "SELECT operator, min(prompt_chars) AS chars FROM cards GROUP BY operator");
      expect(sizes.every((r) => r.chars > 0)).toBe(true);
      const draft = sizes.find((r) => r.operator === "draft")!.chars;
      expect(sizes.filter((r) => r.operator !== "draft").every((r) => r.chars > draft)).toBe(true);
      expect(events.filter((e) => e.type === "node")).toHaveLength(8);
      expect(events.at(-1)!.type).toBe("run-end");
      if (harness === "openmle" || harness === "aira-evo") expect(res.nodes.slice(0, 3).every((n) => n.operator === "draft")).toBe(true);
    } finally {
      ws.close();
    }
  });

  it.each([
    { name: "wall time", cfg: { maxWallS: 250 }, reason: "wall-time" },
    { name: "sandbox time", cfg: { maxSandboxS: 0.001 }, reason: "sandbox-time" },
  ])("stops on its $name budget", async ({ cfg, reason }) => {
    const ws = await openWorkspace(join(tmp("evo-ws-"), "ws"));
    try {
      let t = 0;
      const now = () => (t += 100_000); // an injected clock: 100 s per reading
      const res = await evolve({ task, policy: createTinyPolicy(), workspace: ws, evaluate: pythonEvaluate, now, config: { steps: 10, seed: 1, ...cfg } });
      expect(res.summary.stopReason).toBe(reason);
      expect(res.nodes.length).toBeGreaterThan(0);
      expect(res.nodes.length).toBeLessThan(10);
    } finally {
      ws.close();
    }
  });

  it("a seed fixes the run (one worker); another seed differs", async () => {
    const run = async (seed: number) => {
      const ws = await openWorkspace(join(tmp("evo-ws-"), "ws"));
      try {
        await evolve({ task, policy: createTinyPolicy(), workspace: ws, evaluate: pythonEvaluate, runId: "r", config: { steps: 9, seed, gen0Drafts: 3 } });
        return fingerprint(await ws.query("SELECT node_id, operator, parents, status, valid_score FROM nodes ORDER BY step"));
      } finally {
        ws.close();
      }
    };
    const [a, b, c] = [await run(11), await run(11), await run(12)];
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it("a run SIGKILLed mid-run resumes with no node lost or duplicated, and equals an uninterrupted run", async () => {
    const dir = tmp("evo-kill-");
    const steps = 10;
    const child = (ws: string, resume = "") =>
      spawn(process.execPath, ["--import", "tsx", join(root, "kit/evo/test-helpers/run-child.ts"), ws, join(dir, "task"), String(steps), "5", resume], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    // 1. Kill -9 after the 4th node is written (a job is in flight by then).
    const killed = child(join(dir, "ws"));
    await new Promise<void>((resolve, reject) => {
      let seen = 0;
      let err = "";
      killed.stderr.on("data", (d) => (err += d));
      killed.stdout.on("data", (d: Buffer) => {
        seen += (String(d).match(/^node /gm) ?? []).length;
        if (seen >= 4 && !killed.killed) killed.kill("SIGKILL");
      });
      killed.on("exit", (code, sig) => (sig === "SIGKILL" ? resolve() : reject(new Error(`child ended ${code}: ${err}`))));
    });
    const mid = await openWorkspace(join(dir, "ws"), { readOnly: true });
    const before = (await mid.query<{ n: number }>("SELECT count(*) AS n FROM nodes"))[0]!.n;
    mid.close();
    expect(before).toBeGreaterThanOrEqual(4);
    expect(before).toBeLessThan(steps);
    // 2. Resume in a fresh process.
    const resumed = child(join(dir, "ws"), "kill-run");
    const out = await new Promise<string>((resolve, reject) => {
      let s = "";
      let err = "";
      resumed.stdout.on("data", (d) => (s += d));
      resumed.stderr.on("data", (d) => (err += d));
      resumed.on("exit", (code) => (code === 0 ? resolve(s) : reject(new Error(`resume failed ${code}: ${err}`))));
    });
    expect(out).toContain(`done kill-run ${steps}`);
    // 3. An uninterrupted run with the same seed.
    const full = child(join(dir, "ws2"));
    await new Promise((r) => full.on("exit", r));
    const read = async (d: string) => {
      const ws = await openWorkspace(join(dir, d), { readOnly: true });
      try {
        const rows = await ws.query("SELECT node_id, operator, parents, status, valid_score FROM nodes ORDER BY step");
        const dup = await ws.query<{ n: number }>("SELECT count(*) - count(DISTINCT node_id) AS n FROM cards");
        return { rows: fingerprint(rows), dup: dup[0]!.n };
      } finally {
        ws.close();
      }
    };
    const [a, b] = [await read("ws"), await read("ws2")];
    expect(a.rows).toHaveLength(steps);
    expect(a.dup).toBe(0);
    expect(a.rows).toEqual(b.rows);
  });
});
