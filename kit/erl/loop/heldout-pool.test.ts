import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createGrammarPolicy, defaultGrammarParams, type GrammarOutput, type GrammarParams } from "../../policy/index.js";
import { metaTask } from "../../policy/grammar/test-helpers/tasks.js";
import type { Policy } from "../../policy/types.js";
import type { ExecutionRecord } from "../../sandbox/types.js";
import { openWorkspace, type Workspace } from "../../store/index.js";
import { LoopError } from "../errors.js";
import { heldoutDrafts } from "./heldout-drafts.js";
import { heldoutPool } from "./heldout-pool.js";

const dir = mkdtempSync(join(tmpdir(), "openmle-pool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tasks = [metaTask({ modality: "tabular" }), metaTask({ modality: "text", id: "t-a-text" })];
const SEED = 7; // the loop config's default held-out draw seed is not assumed: the test stores its own config

/** A grade that depends on the program only, as the sandbox's is. */
const grade = (code: string) => (code.length % 97) / 100;

/** Draws 3 held-out drafts per task with `params` as loop L generation `g`, recording each draw's log-probability in
 * draw order (concurrency 1). */
async function draw(ws: Workspace, g: number, checkpoint: string, params: GrammarParams, seen: Map<string, number[]>, on = tasks,
  progress: string[] = []) {
  const inner = createGrammarPolicy(params);
  const policy: Policy = {
    ...inner,
    propose: async (task, op, ctx, rng) => {
      const out = (await inner.propose(task, op, ctx, rng)) as GrammarOutput;
      const key = `${checkpoint}|${task.meta.id}`;
      seen.set(key, [...(seen.get(key) ?? []), out.logProb]);
      return out;
    },
  };
  await heldoutDrafts({
    workspace: ws, loopId: "L", generation: g, checkpoint, policy, tasks: on, drafts: 3, seed: SEED, perRunTimeoutS: 60,
    concurrency: 1, baselines: { "t-tabular": { trivial: 0, reference: 1 } },
    evaluate: async (job) => ({ status: "success", validScore: 0, testScore: grade(job.code ?? ""), wallS: 1 }) as unknown as ExecutionRecord,
    onTask: (taskId, rows, done, of) => progress.push(`${taskId} ${rows.length} ${done}/${of}`),
  });
}

describe("heldoutPool", () => {
  it("replays every member's drafts exactly and attaches their stored grades", async () => {
    const ws = await openWorkspace(join(dir, "a"));
    try {
      const config = { heldout: { draftSeed: SEED }, evolve: { perRunTimeoutS: 60 } };
      await ws.append("loops", [{ loop_id: "L", train_tasks: "[]", heldout_tasks: '["t-tabular","t-a-text"]', config: JSON.stringify(config),
        config_hash: "h", status: "done", started_at: new Date() }]);
      const seen = new Map<string, number[]>();
      const uniform: GrammarParams = { version: 1, logits: {} };
      const progress: string[] = [];
      await draw(ws, 0, "uniform", uniform, seen, tasks, progress);
      expect(progress).toEqual(["t-tabular 3 1/2", "t-a-text 3 2/2"]); // after each task's rows are stored
      await draw(ws, 1, "default", defaultGrammarParams(), seen);

      const pool = await heldoutPool(ws, { loopId: "L", sides: [{ rows: "L", generation: 0 }, { rows: "L", generation: 1 }] });
      expect(pool.labels).toEqual(["uniform", "default"]);
      expect(pool.tasks.map((t) => t.meta.id)).toEqual(["t-a-text", "t-tabular"]);
      expect(pool.drafts).toHaveLength(12);
      expect([...pool.rowsOf.values()].map((r) => r.length)).toEqual([6, 6]);
      for (const [label, rows] of pool.rowsOf)
        for (const r of rows) {
          const p = pool.drafts.find((d) => d.drawnBy === label && d.taskId === r.taskId && d.draft === r.draft)!;
          expect(p.testScore).toBe(r.testScore);
          expect(p.normalized).toBe(r.normalized);
        }
      // The replayed log-probability under the drawer is the one it drew with; both scorers are present.
      for (const d of pool.drafts) {
        expect(Object.keys(d.logProbs).sort()).toEqual(["default", "uniform"]);
        expect(d.logProbs[d.drawnBy]).toBeCloseTo(seen.get(`${d.drawnBy}|${d.taskId}`)![d.draft]!, 9);
      }
      // normalised only where a baseline pair exists: t-tabular's pair is (0, 1), so normalised = test score.
      for (const d of pool.drafts) expect(d.normalized).toBe(d.taskId === "t-tabular" ? d.testScore : null);

      const one = await heldoutPool(ws, { loopId: "L", sides: [{ rows: "L", generation: 0 }, { rows: "L", generation: 1 }], tasks: ["t-tabular"] });
      expect(one.tasks.map((t) => t.meta.id)).toEqual(["t-tabular"]);
      expect(one.drafts).toHaveLength(6);

      await draw(ws, 2, "only-tabular", defaultGrammarParams(), seen, [tasks[0]!]);
      await expect(heldoutPool(ws, { loopId: "L", sides: [{ rows: "L", generation: 0 }, { rows: "L", generation: 2 }] }))
        .rejects.toThrow(/different tasks/);
    } finally {
      ws.close();
    }
  });

  it.each([
    { why: "a checkpoint twice", sides: [{ rows: "L", generation: 0 }, { rows: "L", generation: 0 }], msg: /twice/ },
    { why: "one member", sides: [{ rows: "L", generation: 0 }], msg: /two or more/ },
    { why: "a row set with no rows", sides: [{ rows: "L", generation: 0 }, { rows: "M", generation: 0 }], msg: /no held-out drafts M:0/ },
  ])("refuses $why", async ({ sides, msg }) => {
    const ws = await openWorkspace(join(dir, "a"));
    try {
      await expect(heldoutPool(ws, { loopId: "L", sides })).rejects.toThrow(LoopError);
      await expect(heldoutPool(ws, { loopId: "L", sides })).rejects.toThrow(msg);
      await expect(heldoutPool(ws, { loopId: "nope", sides })).rejects.toThrow(/no loop "nope"/);
    } finally {
      ws.close();
    }
  });
});
