import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runToySearch, TOY_TASK_ID, toyBaselines } from "../../bench/eval/toy-search.js";
import { openWorkspace } from "../store/index.js";
import {
  evaluate, evaluateRuns, loadLiteLeaderboard, loadRunOutcomes, loadSearchEfficiency, meanStd, normalizedScore, percentile,
  recordTrace, relativeChange, searchEfficiency, matchedEfficiency, type RunOutcome,
} from "./index.js";

describe("meanStd / percentile / normalizedScore / relativeChange", () => {
  test.each([
    [[1], 1, 0, 0],
    [[1, 3], 2, 1, Math.SQRT2],
    [[2, 4, 4, 4, 5, 5, 7, 9], 5, 2, Math.sqrt(32 / 7)],
  ])("meanStd(%j): population std by default (the paper's tables), sample std with ddof 1", (xs, m, pop, sample) => {
    const r = meanStd(xs);
    expect(r.mean).toBeCloseTo(m, 12);
    expect(r.std).toBeCloseTo(pop, 12);
    expect(meanStd(xs, { ddof: 1 }).std).toBeCloseTo(sample, 12);
  });
  test.each([
    [[1, 2, 3, 4, 5], 50, 3],
    [[1, 2, 3, 4, 5], 90, 4.6],
    [[10, 20], 99, 19.9],
    [[7], 99, 7],
  ])("percentile(%j, %d) = %d", (xs, p, v) => expect(percentile(xs, p)).toBeCloseTo(v, 12));
  test.each([
    // score, trivial, reference, higherIsBetter, expected
    [0.8, 0.5, 0.9, true, 0.75],
    [0.9, 0.5, 0.9, true, 1],
    [0.4, 0.5, 0.9, true, -0.25],
    [3, 5, 4, false, 2],
    [5, 5, 4, false, 0],
    [1, 0.5, 0.5, true, null],
    [1, 0.9, 0.5, true, null],
    [null, 0.5, 0.9, true, null],
  ])("normalizedScore(%s; %s, %s, hib=%s) = %s", (s, t, r, hib, e) => {
    const v = normalizedScore(s, { trivial: t as number, reference: r as number }, hib as boolean);
    if (e === null) expect(v).toBeNull();
    else expect(v).toBeCloseTo(e as number, 12);
  });
  test("relativeChange", () => expect(relativeChange(200, 150)).toBe(-25));
});

describe("evaluateRuns (hand-computed)", () => {
  // detecting-insults: gold >= 0.83321, silver >= 0.82307, bronze >= 0.79111 (higher is better).
  const o = (run_id: string, task_id: string, seed: number, score: number | null, modality = "text"): RunOutcome => ({
    run_id, task_id, harness: "h", policy: "grammar", config_hash: "abc", seed, modality, higher_is_better: true, score, submission_exists: score !== null,
  });
  const runs = [
    o("r1", "detecting-insults-in-social-commentary", 1, 0.84), // gold
    o("r2", "detecting-insults-in-social-commentary", 2, 0.80), // bronze
    o("r3", "detecting-insults-in-social-commentary", 3, null), // invalid
    o("r4", "mlsp-2013-birds", 1, 0.5, "audio"), // none
    o("r5", "mlsp-2013-birds", 2, 0.95, "audio"), // gold
    o("r6", "mlsp-2013-birds", 3, 0.91, "audio"), // silver (0.90038 <= 0.91 < 0.93527)
  ];
  const lbs = { "detecting-insults-in-social-commentary": loadLiteLeaderboard("detecting-insults-in-social-commentary"), "mlsp-2013-birds": loadLiteLeaderboard("mlsp-2013-birds") };
  const ev = evaluateRuns(runs, { leaderboards: lbs });
  test("grades per run", () => expect(ev.runs.map((r) => r.grade)).toEqual(["gold", "bronze", "invalid", "none", "gold", "silver"]));
  test("avg@k counts only repeats every task has (one task with 3 runs, one with 2 → k = n = 2)", () => {
    const uneven = evaluateRuns(runs.slice(0, 5), { leaderboards: lbs }).groups[0]!;
    expect(uneven.k).toBe(2);
    expect(uneven.medal_average.n).toBe(2);
    // replicates: (gold, none) → 0.5; (bronze, gold) → 1; the lone third run of insults is left out
    expect(uneven.medal_average.mean).toBeCloseTo(0.75, 12);
  });
  test("avg@3: replicate i = i-th run by seed of each task", () => {
    const g = ev.groups[0]!;
    expect(g.k).toBe(3);
    // replicates: (gold, none) → 0.5; (bronze, gold) → 1; (invalid, silver) → 0.5
    expect(g.medal_average.mean).toBeCloseTo(2 / 3, 12);
    expect(g.medal_average.std).toBeCloseTo(meanStd([0.5, 1, 0.5]).std, 12);
    expect(g.valid_rate.mean).toBeCloseTo((1 + 1 + 0.5) / 3, 12);
    expect(g.grades).toEqual({ gold: 2, silver: 1, bronze: 1, none: 1, invalid: 1, ungraded: 0 });
    expect(g.modality).toEqual([
      { modality: "audio", tasks: 1, runs: 3, medal_rate: 2 / 3, valid_rate: 1 },
      { modality: "text", tasks: 1, runs: 3, medal_rate: 2 / 3, valid_rate: 2 / 3 },
    ]);
    const hr3 = (0 + ev.runs[5]!.human_rank!) / 2; // the invalid run counts 0
    expect(ev.runs[2]!.human_rank).toBe(0);
    expect(g.human_rank.n).toBe(3);
    expect(g.human_rank.mean).toBeCloseTo(((ev.runs[0]!.human_rank! + ev.runs[3]!.human_rank!) / 2 + (ev.runs[1]!.human_rank! + ev.runs[4]!.human_rank!) / 2 + hr3) / 3, 12);
  });
  test("baselines may carry the direction (a task without a tasks row defaults to higher-is-better)", () => {
    const e = evaluateRuns([o("x", "no-board", 1, 3)], { baselines: { "no-board": { trivial: 5, reference: 4, higher_is_better: false } } });
    expect(e.runs[0]!.normalized).toBe(2);
    expect(evaluateRuns([o("x", "no-board", 1, 3)], { baselines: { "no-board": { trivial: 5, reference: 4 } } }).runs[0]!.normalized).toBeNull();
  });
  test("runs of one harness and config with different policies, models or checkpoints are never pooled", () => {
    const mixed = [
      ...runs.slice(0, 2),
      { ...runs[2]!, policy: "llm:Qwen/Qwen3-8B" }, { ...runs[3]!, policy: "llm:Qwen/Qwen3-8B" },
      { ...runs[4]!, policy: "grammar@1a2b3c4d" }, { ...runs[5]!, config_hash: "def" },
    ];
    const e = evaluateRuns(mixed, { leaderboards: lbs });
    expect(e.groups.map((g) => [g.group, g.harness, g.policy, g.config_hash, g.k])).toEqual([
      ["h/grammar:abc", "h", "grammar", "abc", 2],
      ["h/llm:Qwen/Qwen3-8B:abc", "h", "llm:Qwen/Qwen3-8B", "abc", 1],
      ["h/grammar@1a2b3c4d:abc", "h", "grammar@1a2b3c4d", "abc", 1],
      ["h/grammar:def", "h", "grammar", "def", 1],
    ]);
    expect(e.runs.map((r) => r.policy)).toEqual(["grammar", "grammar", "llm:Qwen/Qwen3-8B", "llm:Qwen/Qwen3-8B", "grammar@1a2b3c4d", "grammar"]);
  });
  test("per task rows", () => {
    expect(ev.tasks.map((t) => [t.task_id, t.runs, t.valid_rate, t.medal_rate])).toEqual([
      ["detecting-insults-in-social-commentary", 3, 2 / 3, 2 / 3],
      ["mlsp-2013-birds", 3, 1, 2 / 3],
    ]);
  });
});

describe("recordTrace and searchEfficiency (hand-computed)", () => {
  const nodes = [
    { run_id: "a", node_id: "n0", step: 0, operator: "draft", valid_score: 0.5 },
    { run_id: "a", node_id: "n1", step: 1, operator: "improve", valid_score: 0.7 }, // +0.2
    { run_id: "a", node_id: "n2", step: 2, operator: "debug", valid_score: null },
    { run_id: "a", node_id: "n3", step: 3, operator: "crossover", valid_score: 0.6 },
    { run_id: "a", node_id: "n4", step: 4, operator: "crossover", valid_score: 0.8 }, // +0.1
  ];
  const calls = [
    { run_id: "a", operator: "draft", prompt_chars: 100, prompt_tokens: 25, completion_tokens: 75 },
    { run_id: "a", operator: "improve", prompt_chars: 300, prompt_tokens: 75, completion_tokens: 25 },
    { run_id: "a", operator: "improve", prompt_chars: 500, prompt_tokens: 125, completion_tokens: 75 },
  ];
  test("records and gains", () => {
    const t = recordTrace(nodes, true);
    expect(t.map((p) => p.record)).toEqual([true, true, false, false, true]);
    expect(t.map((p) => p.best)).toEqual([0.5, 0.7, 0.7, 0.7, 0.8]);
    expect(recordTrace(nodes, false).map((p) => p.record)).toEqual([true, false, false, false, false]);
  });
  test("efficiency", () => {
    const e = searchEfficiency(nodes, calls, () => true);
    const r = e.runs[0]!;
    expect([r.nodes, r.tokens, r.records]).toEqual([5, 400, 3]);
    expect(r.records_per_ktoken).toBeCloseTo(7.5, 12);
    expect(r.gain_share.improve).toBeCloseTo(2 / 3, 12);
    expect(r.gain_share.crossover).toBeCloseTo(1 / 3, 12);
    // After the first valid node n0 every gain is Improve/Crossover (n1 +0.2 early in the run counts too).
    expect(r.late_improve_crossover_share).toBeCloseTo(1, 12);
    expect(r.gain_units).toBe("validation_score");
    const imp = e.operators.find((o) => o.operator === "improve")!;
    expect([imp.calls, imp.prompt_chars_p50, imp.tokens]).toEqual([2, 400, 300]);
    expect(imp.prompt_chars_p99).toBeCloseTo(498, 12);
  });
});

describe("late Improve/Crossover share in validation Human-Rank units", () => {
  const run = [
    { run_id: "a", node_id: "n0", step: 0, operator: "draft", valid_score: 0.5 }, // first valid node
    { run_id: "a", node_id: "n1", step: 1, operator: "draft", valid_score: 0.62 }, // HR 0.4 → 0.6: +0.2 by a Draft
    { run_id: "a", node_id: "n2", step: 2, operator: "improve", valid_score: 0.65 }, // HR 0.6 → 0.6: +0 (no entry passed)
    { run_id: "a", node_id: "n3", step: 3, operator: "crossover", valid_score: 0.95 }, // HR 0.6 → 1.0: +0.4
  ];
  // Leaderboard 0.9, 0.8, 0.6, 0.55, 0.3 (higher is better): HR(0.5) = 1/5, HR(0.62) = 3/5, HR(0.65) = 3/5, HR(0.95) = 1.
  const lb = [0.9, 0.8, 0.6, 0.55, 0.3];
  const hr = (x: number) => lb.filter((s) => x > s).length / lb.length;
  test("gains measured on the leaderboard, not in raw score", () => {
    const r = searchEfficiency(run, [], () => true, () => hr).runs[0]!;
    // HR gains: Draft 0.4, Improve 0, Crossover 0.4 → share 0.4 / 0.8; in raw score it would be 0.33/0.45.
    expect(r.late_improve_crossover_share).toBeCloseTo(0.4 / 0.8, 12);
    expect(r.gain_units).toBe("human_rank");
    expect(searchEfficiency(run, [], () => true).runs[0]!.late_improve_crossover_share).toBeCloseTo(0.33 / 0.45, 12);
  });
  test("the efficiency table sums totals over matched task-runs (same task, seed, policy)", () => {
    const eff = { runs: [
      { run_id: "o1", nodes: 10, tokens: 1000, records: 4 }, { run_id: "o2", nodes: 20, tokens: 3000, records: 2 },
      { run_id: "a1", nodes: 12, tokens: 2000, records: 2 }, { run_id: "a2", nodes: 30, tokens: 6000, records: 2 },
      { run_id: "a3", nodes: 99, tokens: 9999, records: 9 }, // seed 3 has no OpenMLE-Evo run: left out
    ] } as never;
    const runs = [
      { run_id: "o1", harness: "openmle", task_id: "t", seed: 1 }, { run_id: "o2", harness: "openmle", task_id: "u", seed: 1 },
      { run_id: "a1", harness: "aira-evo", task_id: "t", seed: 1 }, { run_id: "a2", harness: "aira-evo", task_id: "u", seed: 1 },
      { run_id: "a3", harness: "aira-evo", task_id: "t", seed: 3 },
    ];
    const m = matchedEfficiency(eff, runs, "aira-evo", "openmle");
    expect(m.taskRuns).toBe(2);
    expect(m.a).toEqual({ runs: 2, nodes: 42, tokens: 8000, records: 4, records_per_ktoken: 0.5 });
    // Totals, not means of ratios: 6 records / 4,000 tokens = 1.5 per 1k (the mean of 4 and 0.667 would be 2.33).
    expect(m.b).toEqual({ runs: 2, nodes: 30, tokens: 4000, records: 6, records_per_ktoken: 1.5 });
  });
});

describe("evaluate() over a real workspace filled by the toy search", () => {
  test("k=3 per harness, champion test scores, normalised score from real baselines", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "eval-")), "ws"));
    try {
      for (const harness of ["toy-greedy", "toy-evo"] as const) for (const seed of [1, 2, 3]) await runToySearch(ws, { seed, harness, steps: 12 });
      const outcomes = await loadRunOutcomes(ws);
      expect(outcomes).toHaveLength(6);
      // Configs differ only by seed: one group hash per harness.
      expect(new Set(outcomes.map((o) => `${o.harness}:${o.config_hash}`)).size).toBe(2);
      for (const o of outcomes) {
        const [best] = await ws.query<{ test_score: number }>(
          "SELECT test_score FROM nodes WHERE run_id = $r AND status = 'success' ORDER BY valid_score ASC, step LIMIT 1", { r: o.run_id });
        expect(o.score).toBe(best!.test_score);
        expect(o.higher_is_better).toBe(false);
      }
      const baselines = toyBaselines();
      expect(baselines.reference).toBeLessThan(baselines.trivial); // RMSE: the model beats the mean
      const ev = await evaluate(ws, { baselines: { [TOY_TASK_ID]: baselines } });
      expect(ev.groups.map((g) => [g.harness, g.k, g.tasks]).sort()).toEqual([["toy-evo", 3, 1], ["toy-greedy", 3, 1]]);
      for (const r of ev.runs) {
        expect(r.report).toBeNull(); // no leaderboard for the toy task
        expect(r.grade).toBe("ungraded");
        expect(r.normalized).toBeCloseTo((r.score! - baselines.trivial) / (baselines.reference - baselines.trivial), 12);
      }
      const eff = await loadSearchEfficiency(ws);
      expect(eff.runs).toHaveLength(6);
      expect(eff.runs.every((r) => r.nodes === 12 && r.tokens > 0 && r.records >= 1)).toBe(true);
      // Some runs only: the ids reach DuckDB as one parameter (a JS array alone is no DuckDB value).
      const two = eff.runs.slice(0, 2).map((r) => r.run_id);
      const some = await loadSearchEfficiency(ws, two);
      expect(some.runs.map((r) => r.run_id)).toEqual(two);
      expect(some.runs).toEqual(eff.runs.slice(0, 2));
    } finally {
      ws.close();
    }
  });
});

describe("loadRunOutcomes reads kit/evo's RunSummary shape", () => {
  test("summary.champion.testScore, then champion.nodeId's node", async () => {
    const ws = await openWorkspace(join(mkdtempSync(join(tmpdir(), "eval-evo-")), "ws"));
    try {
      await ws.append("runs", [
        { run_id: "a", task_id: "t", harness: "openmle", seed: 1, config_hash: "h", status: "finished", summary: { champion: { nodeId: "n1", testScore: 0.7 } } },
        { run_id: "b", task_id: "t", harness: "openmle", policy: "llm:m", seed: 2, config_hash: "h", status: "finished", summary: { champion: { nodeId: "n2", testScore: null } } },
        { run_id: "c", task_id: "t", harness: "openmle", seed: 3, config_hash: "h", status: "failed", summary: { champion: null } },
        { run_id: "d", task_id: "t", harness: "openmle", seed: 4, config_hash: "h", status: "running", summary: null },
      ]);
      await ws.append("nodes", [{ run_id: "b", node_id: "n2", status: "success", valid_score: 0.5, test_score: 0.6 }]);
      const o = await loadRunOutcomes(ws);
      expect(o.map((r) => [r.run_id, r.score, r.submission_exists])).toEqual([["a", 0.7, true], ["b", 0.6, true], ["c", null, false]]);
      expect(o.map((r) => r.config_hash)).toEqual(["h", "h", "h"]); // no stored config: runs.config_hash kept
      expect(o.map((r) => r.policy)).toEqual(["unknown", "llm:m", "unknown"]);
    } finally {
      ws.close();
    }
  });
});
