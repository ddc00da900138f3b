import { describe, expect, it } from "vitest";
import { createGrammarPolicy, defaultGrammarParams, grammar, type GrammarOutput } from "../../policy/index.js";
import { metaTask } from "../../policy/grammar/test-helpers/tasks.js";
import { configHash } from "../../store/index.js";
import { createRng, keyedSeed } from "../../util/index.js";
import { draftContext } from "../sft/parallel-drafts.js";
import { offPolicyDiffs, offPolicyFigures, offPolicyPaired, replayHeldoutDrafts, type PoolDraft } from "./off-policy.js";

const ln = Math.log;
/** A pool draft of task t, draw d, drawn by `by`, with probabilities under policies P and Q. */
const pd = (t: string, d: number, by: string, p: number, q: number, test: number | null, norm: number | null): PoolDraft => ({
  taskId: t, draft: d, drawnBy: by, specHash: `${t}${d}${by}`, logProbs: { P: ln(p), Q: ln(q) }, testScore: test, normalized: norm,
});
const measure = (m: "score" | "win") => ({ measure: m, normalisable: new Set(["a"]), higherIsBetter: () => true });

describe("off-policy held-out figures (balance heuristic)", () => {
  // Task a, one draw column: P drew x (p 0.6, q 0.2, credit 1.0), Q drew y (p 0.2, q 0.6, credit 0.0).
  // q̄(x) = (0.6 + 0.2) / 2 = 0.4, q̄(y) = 0.4. Target P: w = (1.5, 0.5) → score (1.5·1 + 0.5·0) / 2 = 0.75.
  // Target Q: w = (0.5, 1.5) → score 0.25. ESS = 2² / (1.5² + 0.5²) = 1.6.
  const pool = [pd("a", 0, "P", 0.6, 0.2, 3, 1.0), pd("a", 0, "Q", 0.2, 0.6, 1, 0.0)];

  it.each([
    { target: "P", score: 0.75 },
    { target: "Q", score: 0.25 },
  ])("target $target: score $score, valid 1, ESS 1.6", ({ target, score }) => {
    const [f] = offPolicyFigures(pool, ["P", "Q"], target, new Set(["a"]));
    expect(f).toMatchObject({ taskId: "a", n: 2, validRate: 1 });
    expect(f!.score).toBeCloseTo(score, 12);
    expect(f!.ess).toBeCloseTo(1.6, 12);
  });

  it("P − Q: score 0.5; win: x beats y, weighted 1.5·1.5 of (1.5·1.5 + 0.5·0.5) → 0.9 − ½", () => {
    const [s] = offPolicyDiffs(pool, ["P", "Q"], "P", "Q", measure("score"));
    expect(s!.diff).toBeCloseTo(0.5, 12);
    const [w] = offPolicyDiffs(pool, ["P", "Q"], "P", "Q", measure("win"));
    // pairs (x, y): w_P(x) w_Q(y) = 1.5 · 1.5 win; (y, x): w_P(y) w_Q(x) = 0.5 · 0.5 loss.
    expect(w!.diff).toBeCloseTo(2.25 / 2.5 - 0.5, 12);
  });

  it("a failed draft counts as credit 0 and invalid; tasks outside the normalisable set have no score", () => {
    const p2 = [...pool, pd("b", 0, "P", 0.5, 0.5, null, null), pd("b", 0, "Q", 0.5, 0.5, 2, 0.4)];
    const f = offPolicyFigures(p2, ["P", "Q"], "P", new Set(["a"]));
    expect(f.map((x) => x.taskId)).toEqual(["a", "b"]);
    expect(f[1]).toMatchObject({ score: null, validRate: 0.5, ess: 2 });
    // score differences skip b; win rates include it (equal weights: one failure vs one graded program → ½ − ½ = 0).
    expect(offPolicyDiffs(p2, ["P", "Q"], "P", "Q", measure("score")).map((d) => d.taskId)).toEqual(["a"]);
    expect(offPolicyDiffs(p2, ["P", "Q"], "P", "Q", measure("win"))[1]!.diff).toBeCloseTo(0, 12);
  });

  it("identical policies: the estimate is the plain mean of the pool, and both intervals hold the point", () => {
    const same = [0, 1, 2, 3].flatMap((d) => [pd("a", d, "P", 0.3, 0.3, d, d / 4), pd("a", d, "Q", 0.3, 0.3, d, d / 4)]);
    const [f] = offPolicyFigures(same, ["P", "Q"], "P", new Set(["a"]));
    expect(f!.score).toBeCloseTo((0 + 0.25 + 0.5 + 0.75) / 4, 12);
    expect(f!.ess).toBeCloseTo(8, 12);
    const r = offPolicyPaired(same, ["P", "Q"], "P", "Q", { ...measure("score"), bootstrap: { resamples: 200 } });
    expect(r.tasks).toMatchObject({ n: 1, mean: 0 });
    expect(r.withDraws!.mean).toBeCloseTo(0, 12);
  });
});

describe("replayHeldoutDrafts", () => {
  it("replays heldoutDrafts' draws exactly: same spec, the sampled log-probability under its own policy", async () => {
    const task = metaTask({ modality: "tabular", id: "t-replay" });
    const uniform = grammar.uniformGrammarParams();
    const def = defaultGrammarParams();
    const ctx = draftContext(120);
    const out = await replayHeldoutDrafts({
      tasks: [task],
      draws: [0, 1, 2].flatMap((d) => [
        { taskId: "t-replay", draft: d, drawnBy: "uniform" },
        { taskId: "t-replay", draft: d, drawnBy: "default" },
      ]),
      drawers: [
        { label: "uniform", params: uniform },
        { label: "default", params: def },
      ],
      scorers: [
        { label: "uniform", params: uniform },
        { label: "default", params: def },
      ],
      seed: 7,
      perRunTimeoutS: 120,
      withCode: true,
    });
    expect(out).toHaveLength(6);
    for (const r of out) {
      const params = r.drawnBy === "uniform" ? uniform : def;
      const g = (await createGrammarPolicy(params).propose(
        task, "draft", ctx, createRng(keyedSeed(7, `t-replay#${r.draft}`)),
      )) as GrammarOutput;
      expect(r.specHash).toBe(configHash(g.spec));
      expect(r.code).toBe(g.code);
      expect(r.logProbs[r.drawnBy]).toBeCloseTo(g.logProb, 10);
      expect(Number.isFinite(r.logProbs.uniform!) && Number.isFinite(r.logProbs.default!)).toBe(true);
    }
    await expect(
      replayHeldoutDrafts({
        tasks: [task], draws: [{ taskId: "t-replay", draft: 0, drawnBy: "nobody" }], drawers: [], scorers: [], seed: 7,
        perRunTimeoutS: 120,
      }),
    ).rejects.toThrow(/no task or drawer/);
    const [lean] = await replayHeldoutDrafts({
      tasks: [task], draws: [{ taskId: "t-replay", draft: 0, drawnBy: "uniform" }],
      drawers: [{ label: "uniform", params: uniform }], scorers: [], seed: 7, perRunTimeoutS: 120,
    });
    expect(lean!.code).toBeUndefined();
  });
});
