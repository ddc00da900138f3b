import { describe, expect, it } from "vitest";
import { LoopConfig, type HeldoutDraftRow, type HeldoutRow, type LoopResult } from "../erl/index.js";
import { loopTables } from "./loop-cmd.js";

// Two held-out tasks, two draws each; generation 1 is ahead of generation 0 on every draw of both levels.
const draft = (generation: number, taskId: string, draft: number, x: number): HeldoutDraftRow => ({
  loopId: "L", generation, checkpoint: `c${generation}`, taskId, draft, status: "success",
  validScore: x, testScore: x, normalized: x, sandboxS: 1,
});
const champion = (d: HeldoutDraftRow): HeldoutRow => ({
  loopId: "L", generation: d.generation, checkpoint: d.checkpoint, taskId: d.taskId, seed: d.draft + 1, runId: "r",
  validScore: d.testScore, testScore: d.testScore, validRate: 1, meanDraftScore: null, trivial: 0, reference: 1,
  normalized: d.normalized,
});
const drafts = [0, 1].flatMap((g) =>
  ["a", "b"].flatMap((t, i) => [0, 1].map((d) => draft(g, t, d, 0.2 + 0.1 * i + 0.05 * d + 0.3 * g))),
);
const result: LoopResult = {
  loopId: "L", config: LoopConfig.parse({}), checkpoints: ["c0", "c1"], generations: [],
  drafts, heldout: drafts.map(champion), baselines: { a: { trivial: 0, reference: 1 }, b: { trivial: 0, reference: 1 } },
};

describe("openmle loop's tables", () => {
  it("read each generation against the previous one on both levels, with draws resampled and a verdict", () => {
    const out = loopTables(result, () => true);
    // generation 0: task a's draws 0.2 and 0.25, b's 0.3 and 0.35 → task means 0.225, 0.325; mean 0.275
    expect(out).toContain("| 0 | c0 | 1.00 | 0.275 [0.225, 0.325] (n 2) | – | – | 0.275 [0.225, 0.325] (n 2) | – | – |");
    // every draw of generation 1 is 0.3 ahead: Δ 0.3 with either resampling, and every program pair a win (+½)
    expect(out).toContain(
      "| 1 | 0.300 [0.300, 0.300] (n 2) | 0.500 [0.500, 0.500] (n 2) | beats on win and score | " +
        "0.300 [0.300, 0.300] (n 2) | 0.500 [0.500, 0.500] (n 2) | beats on win and score |",
    );
    expect(out).not.toMatch(/NaN|undefined|null/);
  });
});
