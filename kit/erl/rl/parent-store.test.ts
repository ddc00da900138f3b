import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { metaTask } from "../../policy/grammar/test-helpers/tasks.js";
import { createRng } from "../../util/rng.js";
import { leaderboardBounds } from "./leaderboard-bounds.js";
import { ParentStore } from "./parent-store.js";

const view = (id: string, code: string) => ({ nodeId: id, operator: "draft" as const, code, plan: "", status: "success" as const, validScore: 0.8, errorSignature: null });

describe("ParentStore", () => {
  it("falls back to draft without eligible parents, counts visits, records children, keeps distinct codes, round-trips rows", () => {
    const s = new ParentStore(10);
    const rng = createRng(1);
    expect(s.pick("t", "improve", rng).operator).toBe("draft");
    s.add("t", [{ id: "a", view: view("a", "A"), reward: 0.9 }, { id: "b", view: view("b", "B"), reward: 0 }, { id: "a2", view: view("a2", "A"), reward: 0.1 }]);
    expect(s.states("t").map((x) => x.id)).toEqual(["a", "b"]);
    const imp = s.pick("t", "improve", rng);
    expect(imp).toMatchObject({ operator: "improve", parents: [{ id: "a" }] });
    expect(s.pick("t", "debug", rng).parents.map((p) => p.id)).toEqual(["b"]);
    expect(s.pick("t", "crossover", rng).operator).toBe("draft"); // one program with reward > 0
    s.recordChildren("t", ["a"], [0.5, 1]);
    const back = ParentStore.fromRows(s.toRows("r").map((r) => r as never));
    expect(back.states("t").map((x) => ({ id: x.id, visits: x.visits, kids: x.childRewards }))).toEqual([{ id: "a", visits: 1, kids: [0.5, 1] }, { id: "b", visits: 1, kids: [] }]);
  });
});

describe("leaderboardBounds", () => {
  it("gold threshold as best, last place as worst, signed for lower-is-better metrics; none without a leaderboard", () => {
    const dir = mkdtempSync(join(tmpdir(), "lb-"));
    // 20 teams → gold position max(1, ⌊0.1·20⌋) = 2
    writeFileSync(join(dir, "leaderboard.csv"), ["teamId,score", ...Array.from({ length: 20 }, (_, i) => `t${i},${(0.1 * (i + 1)).toFixed(1)}`)].join("\n"));
    const rmse = { ...metaTask({ modality: "tabular", metric: "rmse", higherIsBetter: false }), dir };
    expect(leaderboardBounds(rmse)).toEqual({ staticBest: -0.2, staticWorst: -2, range: expect.closeTo(1.9, 12) });
    const acc = { ...metaTask({ modality: "tabular" }), dir };
    expect(leaderboardBounds(acc)).toMatchObject({ staticBest: 1.9, staticWorst: 0.1 });
    expect(leaderboardBounds(metaTask({ modality: "tabular" }))).toBeNull();
  });
});
