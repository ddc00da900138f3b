import { describe, expect, it } from "vitest";
import { experimentById } from "./catalogue.js";
import { composition } from "../erl/index.js";
import { funnelFigure, rlFigure, searchFigure, sftFigure } from "./figures.js";
import type { FunnelResult } from "./run-funnel.js";
import type { RlCellResult } from "./run-rl.js";
import type { CellResult } from "./run-search.js";
import type { SftCellResult } from "./run-sft.js";

const cell = (arm: string, repeat: number, task: string, normalized: number | null, normalisable = true): CellResult => ({
  arm, task, repeat, runId: `${arm}-${task}-${repeat}`, cached: true, validRate: 1, testScore: normalized === null ? null : 1,
  normalized, normalisable, reference: 1, higherIsBetter: true, modality: "tabular", grade: null, humanRank: null,
});

describe("searchFigure", () => {
  it("one bar per arm: the mean over repeats of the mean credit, the repeats' population std as error", () => {
    // openmle r1 (1 + 0)/2 = 0.5, r2 (2 + credit(−1) = 0)/2 = 1 → 0.75 ± 0.25; aira-evo only a non-normalisable task
    const cells = [cell("openmle", 1, "a", 1), cell("openmle", 1, "b", null), cell("openmle", 2, "a", 2), cell("openmle", 2, "b", -1), cell("aira-evo", 1, "c", 3, false)];
    const fig = searchFigure(experimentById("harness-fixed-model"), "smoke", cells)!;
    const bars = fig.data[0] as { x: string[]; y: (number | null)[]; error_y: { array: number[] }; text: string[] };
    expect(bars.x).toEqual(["OpenMLE-Evo", "AIRA-Evo"]);
    expect(bars.y).toEqual([0.75, null]);
    expect(bars.error_y.array).toEqual([0.25, 0]);
    expect(bars.text).toEqual(["0.750 ± 0.250 (k = 2)", "–"]);
    expect(searchFigure(experimentById("harness-fixed-model"), "smoke", [cells[4]!])).toBeNull();
    expect(fig.layout!.title).toEqual({ text: "Harness at a fixed model: OpenMLE-Evo vs AIRA-Evo, and Evo-Max (smoke preset)<br><sup>plotted: the normalised score per arm (clipped to [−1, 2], floored at 0), not the paper's measure: no leaderboard grades these tasks</sup>" });
    expect(JSON.stringify(fig.layout!.yaxis)).toContain("normalised test score (1 = kit reference), avg@k");
  });

  it("on leaderboards the bars are the Medal Average (%), Human Rank in the hover, titled so", () => {
    // openmle r1: gold + none → 50 %, r2: bronze + bronze → 100 % → 75 ± 25 %; Human Rank (0.9 + 0.2)/2, (0.6 + 0.6)/2
    const m = (repeat: number, task: string, grade: "gold" | "bronze" | "none", humanRank: number) => ({ ...cell("openmle", repeat, task, 1), grade, humanRank });
    const cells = [m(1, "a", "gold", 0.9), m(1, "b", "none", 0.2), m(2, "a", "bronze", 0.6), m(2, "b", "bronze", 0.6)];
    const fig = searchFigure(experimentById("harness-fixed-model"), "laptop", cells)!;
    const bars = fig.data[0] as { y: (number | null)[]; text: string[]; customdata: string[] };
    expect(bars.y).toEqual([75, null, null]);
    expect(bars.text[0]).toBe("75.0 ± 25.0 % (k = 2)");
    expect(bars.customdata[0]).toBe("; Human Rank 0.575 ± 0.025");
    expect(fig.layout!.title).toMatch(/\(laptop preset\): Medal Average per arm$/);
    expect(JSON.stringify(fig.layout!.yaxis)).toContain("kit reference-zoo leaderboards, not the paper's");
  });
});

describe("rlFigure", () => {
  it("one line per arm: each step's group-best reward averaged over the repeats that reached it", () => {
    const run = (arm: string, repeat: number, best: number[]): RlCellResult => ({
      arm, repeat, runId: `${arm}-${repeat}`, cached: true,
      run: { runId: `${arm}-${repeat}`, status: "finished", bestCandidates: [], groupsPerTask: {}, groups: [], scales: [], steps: best.map((b, step) => ({ step, meanReward: 0, bestReward: b, bestAdvantage: 0, wallS: 1 })) },
    });
    // repeat 1 reached steps 0–2, repeat 2 steps 0–1: step 0 (0.2 + 0.4)/2 = 0.3 ± 0.1; step 1 0.6 ± 0; step 2 0.9 ± 0
    const fig = rlFigure(experimentById("rl-reward-design"), "smoke", [run("adaptive", 1, [0.2, 0.6, 0.9]), run("adaptive", 2, [0.4, 0.6])])!;
    const line = fig.data[0] as { name: string; x: number[]; y: number[]; error_y: { array: number[] } };
    expect(line.name).toBe("adaptive bounds + entropic");
    expect(line.x).toEqual([0, 1, 2]);
    line.y.forEach((y, i) => expect(y).toBeCloseTo([0.3, 0.6, 0.9][i]!, 12));
    line.error_y.array.forEach((s, i) => expect(s).toBeCloseTo([0.1, 0, 0][i]!, 12));
    expect(rlFigure(experimentById("rl-reward-design"), "smoke", [])).toBeNull();
  });

  it("on the fixed scale when every cell's tasks have one: each group's best graded score on the static bounds", () => {
    // accuracy task on [0.5, 1] (stored by one cell only): step 1 groups' best 0.8 and 0.6 → (0.6 + 0.2)/2 = 0.4
    const scales = [{ taskId: "t", higherIsBetter: true, staticBest: 1, staticWorst: 0.5, worstFrom: "trivial" as const, trivialScore: 0.5 }];
    const cell = (arm: string, over: object): RlCellResult => ({
      arm, repeat: 1, runId: arm, cached: true,
      run: { runId: arm, status: "finished", bestCandidates: [], groupsPerTask: {}, scales: [], steps: [{ step: 1, meanReward: 0, bestReward: 1, bestAdvantage: 0, wallS: 1 }], groups: [], ...over },
    });
    const fig = rlFigure(experimentById("rl-reward-design"), "laptop", [
      cell("adaptive", { groups: [{ step: 1, taskId: "t", testScores: [0.7, 0.8] }, { step: 1, taskId: "t", testScores: [0.6] }] }),
      cell("static", { scales, groups: [{ step: 1, taskId: "t", testScores: [1] }] }),
    ])!;
    const ys = fig.data.map((d) => (d as { y: number[] }).y[0]!);
    expect(ys[0]).toBeCloseTo(0.4, 12);
    expect(ys[1]).toBeCloseTo(1, 12);
    expect(JSON.stringify(fig.layout)).toContain("fixed scale");
  });

  it("a timing experiment (first metric mean-step-minutes) plots each step's wall time in minutes", () => {
    const run = (arm: string, repeat: number, wallS: number[]): RlCellResult => ({
      arm, repeat, runId: `${arm}-${repeat}`, cached: true,
      run: { runId: `${arm}-${repeat}`, status: "finished", bestCandidates: [], groupsPerTask: {}, groups: [], scales: [], steps: wallS.map((w, step) => ({ step, meanReward: 0, bestReward: 1, bestAdvantage: 0, wallS: w })) },
    });
    // sync: step 0 (60 + 180)/2 s = 2 ± 1 min, step 1 3 min; mean over all steps (1 + 3 + 3)/3 = 2.33; async 0.5, 0.5
    const fig = rlFigure(experimentById("async-rl"), "smoke", [run("sync", 1, [60, 180]), run("sync", 2, [180]), run("async", 1, [30, 30])])!;
    const [sync, async] = fig.data as { name: string; x: number[]; y: number[]; error_y: { array: number[] } }[];
    expect(sync!.name).toBe("synchronous (mean 2.33 min)");
    expect(sync!.x).toEqual([0, 1]);
    expect(sync!.y).toEqual([2, 3]);
    expect(sync!.error_y.array).toEqual([1, 0]);
    expect(async!.name).toBe("asynchronous (mean 0.50 min)");
    expect(JSON.stringify(fig.layout)).toContain("step wall time (min");
  });
});

describe("funnelFigure", () => {
  it("notebook 01's funnel figure (kit stages beside the paper's branch), titled as the experiment", () => {
    const r = { buildId: "b", dir: null, candidates: 4, cached: 0, wallS: 1, table: { candidates: 4, stages: [{ stage: "export", unit: "candidates", entered: 4, kept: 4, keptCandidates: 4, candidateShare: 1 }] } } as unknown as FunnelResult;
    const fig = funnelFigure(experimentById("gym-funnel"), "laptop", r)!;
    const [kit, paper] = fig.data as { name: string; y: number[] }[];
    expect(kit!.y).toEqual([1]);
    expect(paper!.name).toContain("paper");
    expect(JSON.stringify(fig.layout!.title)).toContain("The Gym funnel");
    expect(funnelFigure(experimentById("gym-funnel"), "laptop", { ...r, candidates: 0 })).toBeNull();
  });
});

describe("sftFigure", () => {
  it("per operator: each arm's share averaged over repeats (population std as error), the paper's bars beside", () => {
    const ex = (operator: "draft" | "debug" | "improve", path: "parallel" | "evolution") => ({ operator, path });
    const sft = (repeat: number, examples: ReturnType<typeof ex>[]): SftCellResult => ({
      arm: "default", repeat, dataset: `d${repeat}`, cached: true, examples: examples.length, composition: composition(examples),
    });
    // r1: 3 parallel drafts + 1 evolution debug (75 / 25 / 0 / 0 %); r2: 1 parallel draft + 1 evolution improve (50 / 0 / 50 / 0 %)
    // in OPERATORS order: draft (75 + 50)/2 = 62.5 ± 12.5; improve 25 ± 25; debug 12.5 ± 12.5; crossover 0 ± 0
    const cells = [sft(1, [ex("draft", "parallel"), ex("draft", "parallel"), ex("draft", "parallel"), ex("debug", "evolution")]), sft(2, [ex("draft", "parallel"), ex("improve", "evolution")])];
    const fig = sftFigure(experimentById("sft-composition"), "smoke", cells)!;
    const [kit, paper] = fig.data as { name: string; x: string[]; y: number[]; error_y?: { array: number[] }; customdata?: string[] }[];
    expect(kit!.name).toBe("kit: default teacher (k = 2)");
    expect(kit!.x).toEqual(["draft", "improve", "debug", "crossover"]);
    expect(kit!.y).toEqual([62.5, 25, 12.5, 0]);
    expect(kit!.error_y!.array).toEqual([12.5, 25, 12.5, 0]);
    expect(kit!.customdata![0]).toBe("2.0 parallel + 0.0 evolution examples");
    expect(paper!.name).toMatch(/^paper \(reference\)/);
    expect(paper!.y).toEqual([74.0, 6.6, 16.5, 2.8]); // draft, improve, debug, crossover
    expect(sftFigure(experimentById("sft-composition"), "smoke", [])).toBeNull();
  });
});
