import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TaskPackage } from "../../gym/types.js";
import { openWorkspace } from "../../store/index.js";
import { loadHeldout } from "./heldout-store.js";
import { normalisedUnder } from "./heldout-eval.js";
import { loopBaselines, markStage, saveBaselines, stageResult } from "./loop-store.js";
import { refreshBaselines, type BaselineRunner } from "./refresh-baselines.js";

const dir = mkdtempSync(join(tmpdir(), "openmle-rebase-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const task = (id: string, higherIsBetter: boolean) => ({ meta: { id, higherIsBetter } }) as unknown as TaskPackage;

describe("normalisedUnder", () => {
  it.each([
    { test: 0.85, pair: { trivial: 0.5, reference: 0.9 }, up: true, want: 0.875 }, // (0.85 − 0.5) / 0.4
    { test: 0.55, pair: { trivial: 1, reference: 0.1 }, up: false, want: 0.5 }, // (0.55 − 1) / (0.1 − 1)
    { test: 0.55, pair: { trivial: 0.5, reference: 0.9 }, up: false, want: null }, // reference worse than trivial
    { test: 0.85, pair: { trivial: 0.5, reference: null }, up: true, want: null },
    { test: 0.85, pair: undefined, up: true, want: null },
    { test: null, pair: { trivial: 0.5, reference: 0.9 }, up: true, want: null },
  ])("$test under $pair (higher better: $up) → $want", ({ test, pair, up, want }) => {
    const got = normalisedUnder(test, pair, up);
    if (want === null) expect(got).toBeNull();
    else expect(got).toBeCloseTo(want, 12);
  });
});

describe("refreshBaselines", () => {
  it("re-runs only tasks without a pair and renormalises every stored row (hand-computed)", async () => {
    const ws = await openWorkspace(join(dir, "a"));
    try {
      await ws.append("loops", [{ loop_id: "L", train_tasks: '["p"]', heldout_tasks: '["wine","spam"]', config: "{}", config_hash: "h", status: "done", started_at: new Date() }]);
      await markStage(ws, "L", -1, "baselines", "done", { wine: { trivial: 1, reference: 0.1 }, spam: { trivial: 0.5, reference: null } });
      const row = (generation: number, task_id: string, test_score: number | null, trivial: number | null, reference: number | null, normalized: number | null) => ({
        loop_id: "L", generation, checkpoint: "c", task_id, seed: 1, run_id: `r${generation}${task_id}`, valid_score: null, test_score,
        valid_rate: 1, mean_draft_score: null, trivial, reference, normalized,
      });
      await ws.append("loop_heldout", [row(0, "wine", 0.55, 1, 0.1, 0.5), row(0, "spam", 0.85, 0.5, null, null), row(1, "spam", 0.95, 0.5, null, null), row(1, "wine", null, 1, 0.1, null)]);
      const calls: string[] = [];
      const run: BaselineRunner = async (t) => { calls.push(t.meta.id); return { trivial: 0.5, reference: 0.9 }; };
      const b = await refreshBaselines(ws, "L", [task("wine", false), task("spam", true)], { run });
      expect(calls).toEqual(["spam"]);
      expect(b).toEqual({ wine: { trivial: 1, reference: 0.1 }, spam: { trivial: 0.5, reference: 0.9 } });
      expect(await stageResult(ws, "L", -1, "baselines")).toEqual(b);
      const rows = await loadHeldout(ws, "L");
      // spam (↑): (0.85 − 0.5) / (0.9 − 0.5) = 0.875, (0.95 − 0.5) / 0.4 = 1.125; wine (↓): (0.55 − 1) / (0.1 − 1) = 0.5; no test score → null
      expect(rows.map((r) => [r.generation, r.taskId, r.reference, r.normalized === null ? null : Number(r.normalized.toFixed(6))])).toEqual([
        [0, "spam", 0.9, 0.875], [0, "wine", 0.1, 0.5], [1, "spam", 0.9, 1.125], [1, "wine", 0.1, null],
      ]);
      const all = await refreshBaselines(ws, "L", [task("wine", false)], { run, onlyMissing: false });
      expect(calls).toEqual(["spam", "wine"]);
      expect(all.wine).toEqual({ trivial: 0.5, reference: 0.9 });
      // wine (↓) at its new pair 0.5 → 0.9: the reference is worse than trivial, so no normalised score;
      // spam was not given, so its rows keep theirs
      expect((await loadHeldout(ws, "L")).map((r) => [r.generation, r.taskId, r.normalized === null ? null : Number(r.normalized.toFixed(6))])).toEqual([
        [0, "spam", 0.875], [0, "wine", null], [1, "spam", 1.125], [1, "wine", null],
      ]);
    } finally {
      ws.close();
    }
  });

  it("refuses an unknown loop and tasks outside its held-out set", async () => {
    const ws = await openWorkspace(join(dir, "b"));
    try {
      await expect(refreshBaselines(ws, "nope", [])).rejects.toThrow(/no loop "nope"/);
      await ws.append("loops", [{ loop_id: "L", train_tasks: '["p"]', heldout_tasks: '["wine"]', config: "{}", config_hash: "h", status: "done", started_at: new Date() }]);
      await expect(refreshBaselines(ws, "L", [task("cars", false)])).rejects.toThrow(/cars not among loop "L"'s held-out tasks \(wine\)/);
    } finally {
      ws.close();
    }
  });

  it("saveBaselines stores a row set's own baselines where loopBaselines reads them; a later save replaces them", async () => {
    const ws = await openWorkspace(join(dir, "c"));
    try {
      expect(await loopBaselines(ws, "L-x40")).toEqual({});
      await saveBaselines(ws, "L-x40", { wine: { trivial: 1, reference: 0.1 } });
      await saveBaselines(ws, "L-x40", { wine: { trivial: 1, reference: 0.1 }, cars: { trivial: null, reference: null } });
      expect(await loopBaselines(ws, "L-x40")).toEqual({ wine: { trivial: 1, reference: 0.1 }, cars: { trivial: null, reference: null } });
      expect(await loopBaselines(ws, "L")).toEqual({});
    } finally {
      ws.close();
    }
  });
});
