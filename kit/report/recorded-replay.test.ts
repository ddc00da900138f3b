import { describe, expect, it } from "vitest";
import { buildContext, loadNodes } from "../evo/index.js";
import { resolveTask } from "../gym/index.js";
import { grammar } from "../policy/index.js";
import { openRecordedRuns } from "./recorded-runs.js";
import { loadRunViews } from "./run-view.js";

// The runs shipped in data/recorded-runs were written by the version 1 params (default@1), before context labels:
// rebuilt from the stored tree as the search saw it, every node's program replays to its stored logProb, and under
// the version 3 defaults the same rebuild replays the same way twice (the labels come from the context alone).
describe("recorded runs replay exactly", () => {
  it("every grammar node of the four recorded cars runs: stored logProb under default@1", async () => {
    const ws = await openRecordedRuns("cars");
    try {
      const task = await resolveTask("cars");
      const v1 = grammar.handSetGrammarParams();
      const v3 = grammar.defaultGrammarParams();
      let checked = 0;
      for (const view of await loadRunViews(ws)) {
        const nodes = await loadNodes(ws, view.runId);
        for (const n of nodes) {
          if (n.logProb === null) continue;
          const before = nodes.filter((m) => m.step < n.step);
          const budget = { remainingSteps: 40 - n.step, remainingTimeS: Infinity, perRunTimeLimitS: 600 };
          const action = { operator: n.operator, parents: [...n.parents], island: n.island };
          const ctx = await buildContext(ws, view.runId, view.config!, action, before, budget, {});
          expect(grammar.logProb(v1, n.code, task, n.operator, ctx)).toBeCloseTo(n.logProb, 9);
          const again = grammar.replayChoices(v3, n.code, task, n.operator, ctx);
          expect(grammar.replayChoices(v3, n.code, task, n.operator, ctx)).toEqual(again);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(100);
    } finally {
      ws.close();
    }
  }, 120_000);
});
