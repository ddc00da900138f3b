// The power line's arithmetic, with hand-computed values (z_{0.975} + z_{0.80} = 2.8015852).
import { describe, expect, it } from "vitest";
import {
  betweenTaskVariance, minimumDetectableEffect, powerEstimate, powerLine, sampleVariance, winRateMde,
  withinTaskVariance, Z_80, Z_975, type DevValue,
} from "./power.js";

const v = (source: string, policy: string, taskId: string, values: number[]): DevValue[] =>
  values.map((value) => ({ source, policy, taskId, value }));

// Binary draws: A t1 [1,0,1,0] (s² 1/3), B t1 [1,1,1,0] (s² 1/4), A t2 all 0 (s² 0), B t2 [1,1,0,0] (s² 1/3).
const BINARY = [
  ...v("a", "A", "t1", [1, 0, 1, 0]),
  ...v("b", "B", "t1", [1, 1, 1, 0]),
  ...v("a", "A", "t2", [0, 0, 0, 0]),
  ...v("b", "B", "t2", [1, 1, 0, 0]),
];
// Continuous: A t1 [1.0, 1.2], B t1 [0, 0.2] (δ 1), A and B t2 [0, 0.2] (δ 0); every s² = 0.02.
const SPREAD = [
  ...v("a", "A", "t1", [1.0, 1.2]),
  ...v("b", "B", "t1", [0, 0.2]),
  ...v("a", "A", "t2", [0, 0.2]),
  ...v("b", "B", "t2", [0, 0.2]),
];

describe("the power arithmetic", () => {
  it("z values", () => {
    expect(Z_975 + Z_80).toBeCloseTo(2.8015852181, 9);
  });

  it.each([
    ["one value", [3], null],
    ["two values", [1, 3], 2], // mean 2, (1 + 1) / 1
    ["binary, half", [1, 0, 1, 0], 1 / 3], // 4 · 0.25 / 3
    ["constant", [5, 5, 5], 0],
  ] as const)("sampleVariance: %s", (_, xs, want) => {
    const got = sampleVariance(xs);
    if (want === null) expect(got).toBeNull();
    else expect(got).toBeCloseTo(want, 12);
  });

  it.each([
    // t1: mean(1/3, 1/4) = 7/24; t2: mean(0, 1/3) = 1/6; σ̄² = (7/24 + 4/24) / 2 = 11/48
    ["binary draws", BINARY, 11 / 48, 2],
    ["continuous", SPREAD, 0.02, 2],
    ["no row set with two values", v("a", "A", "t1", [1]), null, 0],
  ] as const)("withinTaskVariance: %s", (_, values, sigma2, tasks) => {
    const got = withinTaskVariance(values);
    if (sigma2 === null) expect(got).toBeNull();
    else expect(got).toEqual({ sigma2: expect.closeTo(sigma2, 12), tasks });
  });

  it.each([
    // δ = [−0.25, −0.5]: s²_δ = 0.03125; noise mean(1/12 + 1/16, 0 + 1/12) = 11/96 > s²_δ → τ² = 0
    ["noise explains the spread", BINARY, 0],
    // δ = [1, 0]: s²_δ = 0.5; noise = 0.02/2 + 0.02/2 = 0.02 per task → τ² = 0.48
    ["a real spread", SPREAD, 0.48],
  ] as const)("betweenTaskVariance: %s", (_, values, tau2) => {
    expect(betweenTaskVariance(values, "A", "B")).toEqual({ tau2: expect.closeTo(tau2, 12), tasks: 2 });
  });

  it("betweenTaskVariance needs both policies on two tasks", () => {
    expect(betweenTaskVariance(BINARY, "A", "C")).toBeNull();
    expect(betweenTaskVariance(BINARY.filter((x) => x.taskId === "t1"), "A", "B")).toBeNull();
  });

  it.each([
    // 2.80159 · sqrt(2 · 1 / 2) / 1
    [{ sigma2: 1, tau2: 0, tasks: 1, draws: 2 }, 2.8015852181],
    // sqrt(2 · 0.25 / 32) = 0.125; · 2.80159 / sqrt(40)
    [{ sigma2: 0.25, tau2: 0, tasks: 40, draws: 32 }, 0.0553711897],
    // sqrt(0.01) = 0.1; · 2.80159 / 10
    [{ sigma2: 0, tau2: 0.01, tasks: 100, draws: 1 }, 0.0280158522],
    // sqrt(2 · 0.02 / 32 + 0.48) = sqrt(0.48125); · 2.80159 / sqrt(40)
    [{ sigma2: 0.02, tau2: 0.48, tasks: 40, draws: 32 }, 0.3072976315],
  ])("minimumDetectableEffect %j", (o, want) => {
    expect(minimumDetectableEffect(o)).toBeCloseTo(want, 9);
  });

  it("winRateMde: s_d of [0.1, −0.1, 0.3, 0.1] = sqrt(0.08 / 3); · 2.80159 / sqrt(40)", () => {
    expect(winRateMde([0.1, -0.1, 0.3, 0.1], 40)).toBeCloseTo(0.0723366193, 9);
    expect(winRateMde([0.1], 40)).toBeNull();
  });
});

describe("powerEstimate and its line", () => {
  it("σ̄² and τ² from dev rows of both arms", () => {
    const p = powerEstimate({ measure: "human_rank", tasks: 40, draws: 32, values: SPREAD, policyA: "A", policyB: "B" });
    expect(p).toMatchObject({ kind: "mde", tasks: 40, draws: 32, sigma2: expect.closeTo(0.02, 12),
      tau2: expect.closeTo(0.48, 12), devTasks: 2, tauFrom: "dev rows of A and B on 2 tasks" });
    expect(p.kind === "mde" && p.mde).toBeCloseTo(0.3072976315, 9);
    expect(powerLine(p)).toBe(
      "power: with 40 tasks × 32 draws, the smallest A − B on human_rank detected at 80 % power (two-sided α 0.05) " +
        "is 0.307 (σ̄² 0.0200 within tasks over 2 dev tasks; τ² 0.480 between tasks (dev rows of A and B on 2 tasks))",
    );
  });

  it("τ² is 0 and said so when the compared arms have no dev rows", () => {
    // σ̄² = 11/48; MDE = 2.80159 · sqrt(2 · (11/48) / 32) / sqrt(40) = 0.0530138780
    const p = powerEstimate({ measure: "valid_rate", tasks: 40, draws: 32, values: BINARY, policyA: "X", policyB: "Y" });
    expect(p).toMatchObject({ kind: "mde", tau2: 0, tauFrom: "0 assumed: no dev rows of both X and Y" });
    expect(p.kind === "mde" && p.mde).toBeCloseTo(0.0530138780, 9);
  });

  it("no dev rows: the line says how to get them", () => {
    const p = powerEstimate({ measure: "medal_average", tasks: 40, draws: 32, values: [], policyA: "A", policyB: "B" });
    expect(powerLine(p)).toBe(
      "power: no development rows to estimate power from: run the plan's arms on suite:dev first (openmle " +
        "experiment run on a dev plan)",
    );
  });

  it("the win rate reads the spread of d_t, and needs it on two tasks", () => {
    const p = powerEstimate({ measure: "win_rate", tasks: 40, draws: 32, values: BINARY, policyA: "A", policyB: "B",
      winDiffs: [0.1, -0.1, 0.3, 0.1] });
    expect(p).toMatchObject({ kind: "mde", sigma2: null, tau2: null, devTasks: 4 });
    expect(p.kind === "mde" && p.mde).toBeCloseTo(0.0723366193, 9);
    const none = powerEstimate({ measure: "win_rate", tasks: 40, draws: 32, values: BINARY, policyA: "A",
      policyB: "B", winDiffs: [] });
    expect(powerLine(none)).toMatch(/^power: the win rate needs dev rows of both A and B on 2 or more dev tasks/);
  });
});
