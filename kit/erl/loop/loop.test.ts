import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveTask, storedTaskPackages } from "../../gym/index.js";
import { probeBwrap } from "../../sandbox/index.js";
import { openWorkspace } from "../../store/index.js";
import { loadCheckpoint } from "../checkpoints.js";
import { LoopError } from "../errors.js";
import { loop, type LoopEvent } from "./loop.js";
import { LOOP_STAGES, loopCompositions, loopStages, type LoopStage } from "./loop-store.js";

const noBwrap = probeBwrap();
if (noBwrap) process.stderr.write(`SKIP smoke loop test: bubblewrap cannot run here (${noBwrap}); install bubblewrap (scripts/setup.sh).\n`);
const dir = mkdtempSync(join(tmpdir(), "openmle-loop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Kill extends Error {}

describe("loop", () => {
  it("refuses overlapping training and held-out task sets", async () => {
    const ws = await openWorkspace(join(dir, "overlap"));
    try {
      const t = await resolveTask("penguins");
      await expect(loop({ workspace: ws, loopId: "x", trainTasks: [t], heldoutTasks: [t] })).rejects.toThrow(LoopError);
      await expect(loop({ workspace: ws, loopId: "x", trainTasks: [t], heldoutTasks: [t] })).rejects.toThrow(/overlap \(penguins\)/);
    } finally {
      ws.close();
    }
  });

  // One smoke generation (penguins → wine held out) from uniform with the default teacher, killed once in every
  // stage, each time resumed.
  it.skipIf(!!noBwrap)("smoke loop end to end: a kill in each stage resumes at that stage; teacher, lineage, both held-out measures, rerun skips everything", async () => {
    const trainTasks = [await resolveTask("penguins")];
    const heldoutTasks = [await resolveTask("wine")];
    const order: [number, LoopStage][] = [[-1, "baselines"], [0, "heldout"], ...LOOP_STAGES.slice(1).map((s) => [0, s] as [number, LoopStage]), [1, "heldout"]];
    const wsDir = join(dir, "smoke");
    const run = async (killAt: [number, LoopStage] | null) => {
      const ws = await openWorkspace(wsDir);
      const events: LoopEvent[] = [];
      let inStage = false;
      try {
        const res = await loop({
          workspace: ws, loopId: "L", trainTasks, heldoutTasks, config: { preset: "smoke", generations: 1, seeds: [1], from: "uniform", teacher: "default" },
          onEvent: (e) => {
            events.push(e);
            if (!killAt) return;
            if (e.type === "stage-start" && e.generation === killAt[0] && e.stage === killAt[1]) {
              // evolve stages die after their first node is written; the others as soon as they start
              if (e.stage !== "heldout" && e.stage !== "evolve") throw new Kill(`killed in ${e.stage}`);
              inStage = true;
            }
            if (inStage && e.type === "evo" && e.event.type === "node") throw new Kill(`killed in ${killAt[1]}`);
          },
        });
        return { res, events, stages: await loopStages(ws, "L") };
      } catch (e) {
        if (!(e instanceof Kill)) throw e;
        return { res: null, events, stages: await loopStages(ws, "L") };
      } finally {
        ws.close();
      }
    };
    for (let i = 0; i < order.length; i++) {
      const [g, s] = order[i]!;
      const r = await run([g, s]);
      expect(r.res).toBeNull();
      // everything before the killed stage was skipped (done earlier) or done now; the killed one is left running
      // the resumed loop restarts in the stage the previous kill left (earlier stages skipped), finishes it, and dies in the next
      const started = r.events.flatMap((e) => (e.type === "stage-start" ? [[e.generation, e.stage]] : []));
      expect(started).toEqual(i === 0 ? [order[0]] : [order[i - 1], order[i]]);
      expect(r.events.filter((e) => e.type === "stage-skipped")).toHaveLength(Math.max(0, i - 1));
      expect(r.stages.find((x) => x.generation === g && x.stage === s)!.status).toBe("running");
      expect(r.stages.filter((x) => x.status === "done")).toHaveLength(i);
    }
    const done = await run(null);
    expect(done.res).not.toBeNull();
    const res = done.res!;
    expect(done.stages.every((x) => x.status === "done")).toBe(true);
    expect(res.checkpoints).toEqual(["uniform", "L-g1"]);
    expect(res.generations[0]!.teacher).toBe("default");
    const ws = await openWorkspace(wsDir, { readOnly: true });
    try {
      const ck = await loadCheckpoint(ws, "L-g1");
      expect(ck).toMatchObject({ source: "loop", parent: "uniform", dataset: "L-g0" });
      expect((ck.config as { lineage: { rlRun: string; sftCheckpoint: string } }).lineage).toMatchObject({ rlRun: "L-g1-rl", sftCheckpoint: "L-g1-sft", teacher: "default" });
      expect((await loadCheckpoint(ws, "L-g1-sft")).parent).toBe("uniform");
      // resumed evolve runs hold each step once
      const runs = await ws.query<{ run_id: string; policy: string; n: number }>("SELECT r.run_id, r.policy, count(n.node_id)::INTEGER AS n FROM runs r LEFT JOIN nodes n USING (run_id) GROUP BY 1, 2 ORDER BY 1");
      // the teacher (default params: policy "grammar") evolved the training task; the student is evaluated
      expect(runs.map((r) => [r.run_id, r.policy, r.n])).toEqual([["L-g0-penguins-s1", "grammar", 2], ["L-h0-wine-s1", "grammar:uniform", 2], ["L-h1-wine-s1", "grammar:L-g1", 2]]);
      // what a loop exported without its datasets and packages still tells (data/recorded-runs, notebook 09)
      expect(await loopCompositions(ws, "L")).toEqual([{ generation: 0, dataset: "L-g0", examples: res.generations[0]!.examples, composition: res.generations[0]!.composition }]);
      const stored = await storedTaskPackages(ws, ["wine", "no-such-task", "penguins"]);
      expect(stored.map((t) => t.meta)).toEqual([(await resolveTask("wine")).meta, (await resolveTask("penguins")).meta]);
    } finally {
      ws.close();
    }
    expect(res.heldout.map((h) => [h.generation, h.checkpoint, h.taskId])).toEqual([[0, "uniform", "wine"], [1, "L-g1", "wine"]]);
    // the policy level: 2 fresh drafts per generation, from the same draws
    expect(res.drafts.map((d) => [d.generation, d.checkpoint, d.taskId, d.draft])).toEqual([[0, "uniform", "wine", 0], [0, "uniform", "wine", 1], [1, "L-g1", "wine", 0], [1, "L-g1", "wine", 1]]);
    for (const d of res.drafts) if (d.testScore !== null) expect(d.normalized).toBeCloseTo((d.testScore - res.baselines.wine!.trivial!) / (res.baselines.wine!.reference! - res.baselines.wine!.trivial!), 12);
    for (const h of res.heldout) {
      expect(h.validRate).toBeGreaterThan(0);
      expect(h.trivial).not.toBeNull();
      expect(h.normalized).toBeCloseTo((h.testScore! - h.trivial!) / (h.reference! - h.trivial!), 12);
    }
    // a finished loop reruns as a no-op
    const again = await run(null);
    expect(again.events.every((e) => e.type === "stage-skipped")).toBe(true);
    expect(again.res!.heldout).toEqual(res.heldout);
  }, 900_000);
});
