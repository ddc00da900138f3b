import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { metaTask } from "../../policy/grammar/test-helpers/tasks.js";
import { createRng } from "../../util/rng.js";
import { leaderboardBounds, staticBestBound, staticBounds, theoreticalBest } from "./leaderboard-bounds.js";
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

  it("keeps each state's graded test score out of its view and its rows; a resume reads it back", () => {
    const s = new ParentStore(10);
    s.add("t", [{ id: "a", view: view("a", "A"), reward: 0.9, testScore: 0.81 }, { id: "b", view: view("b", "B"), reward: 0 }]);
    expect(s.states("t").map((x) => x.testScore)).toEqual([0.81, null]);
    const rows = s.toRows("r");
    expect(rows.every((r) => !("test_score" in r) && !String(r.view).includes("0.81"))).toBe(true);
    const back = ParentStore.fromRows(rows.map((r) => ({ ...r, test_score: r.state_id === "a" ? 0.81 : null }) as never));
    expect(back.states("t").map((x) => x.testScore)).toEqual([0.81, null]);
    back.setTestScores("t", new Map([["b", 0.5], ["zz", 1]]));
    expect(back.states("t").map((x) => x.testScore)).toEqual([0.81, 0.5]);
  });
});

describe("leaderboardBounds / staticBounds", () => {
  it("best = max(theoretical best, leaderboard best) (not the gold threshold), last place as worst, signed; theoretical alone without a leaderboard", () => {
    const dir = mkdtempSync(join(tmpdir(), "lb-"));
    // 20 teams scoring 0.1 … 2.0 (the old rule's gold position 2 would give 1.9 / −0.2)
    writeFileSync(join(dir, "leaderboard.csv"), ["teamId,score", ...Array.from({ length: 20 }, (_, i) => `t${i},${(0.1 * (i + 1)).toFixed(1)}`)].join("\n"));
    // rmse: signed −0.1 … −2; theoretical best 0 > −0.1 → 0
    const rmse = { ...metaTask({ modality: "tabular", metric: "rmse", higherIsBetter: false }), dir };
    expect(leaderboardBounds(rmse)).toEqual({ staticBest: 0, staticWorst: -2, range: expect.closeTo(1.9, 12) });
    // accuracy: theoretical 1 < leaderboard best 2 → 2
    const acc = { ...metaTask({ modality: "tabular" }), dir };
    expect(leaderboardBounds(acc)).toMatchObject({ staticBest: 2, staticWorst: 0.1 });
    // a metric the registry does not know: the leaderboard's best alone
    const own = { ...metaTask({ modality: "tabular", metric: "my_metric", higherIsBetter: true }), dir };
    expect(leaderboardBounds(own)).toMatchObject({ staticBest: 2, staticWorst: 0.1 });
    expect(leaderboardBounds(metaTask({ modality: "tabular" }))).toBeNull();
    expect(staticBounds(metaTask({ modality: "tabular" }))).toEqual({ staticBest: 1, range: null });
    expect(staticBounds(metaTask({ modality: "tabular", metric: "mae", higherIsBetter: false }))).toEqual({ staticBest: 0, range: null });
    expect(staticBounds(metaTask({ modality: "tabular", metric: "my_metric", higherIsBetter: true }))).toEqual({ range: null });
  });

  it.each([
    { metric: "accuracy", hib: true, best: 1 },
    { metric: "roc_auc", hib: true, best: 1 },
    { metric: "macro_f1", hib: true, best: 1 },
    { metric: "qwk", hib: true, best: 1 },
    { metric: "rmse", hib: false, best: 0 },
    { metric: "mae", hib: false, best: 0 },
    { metric: "log_loss", hib: false, best: 0 },
    { metric: "not_a_metric", hib: true, best: null },
  ])("theoretical best of $metric: $best", ({ metric, hib, best }) => {
    expect(theoreticalBest(metric, hib)).toBe(best);
  });

  it.each([
    { theo: 1, lb: 0.93, best: 1 },
    { theo: 1, lb: 2, best: 2 },
    { theo: 0, lb: -0.1, best: 0 },
    { theo: null, lb: -0.1, best: -0.1 },
    { theo: 1, lb: null, best: 1 },
    { theo: null, lb: null, best: undefined },
  ])("staticBestBound($theo, $lb) = $best", ({ theo, lb, best }) => {
    expect(staticBestBound(theo, lb)).toBe(best);
  });
});
