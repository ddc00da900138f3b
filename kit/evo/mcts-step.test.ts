import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openWorkspace } from "../store/index.js";
import { EvolveConfig } from "./config.js";
import { evolve } from "./evolve.js";
import { MCTS_DEFAULTS, mctsStats, mctsStep, normaliseQ, uct } from "./mcts-step.js";
import { mkNode } from "./test-helpers/make-node.js";
import { pythonEvaluate } from "./test-helpers/python-evaluator.js";
import { createTinyPolicy } from "./test-helpers/tiny-policy.js";
import { writeTinyTask } from "./test-helpers/tiny-task.js";
import type { EvoNode } from "./types.js";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const draft = (id: string, v: number | null) => mkNode({ nodeId: id, validScore: v, status: v === null ? "runtime_error" : "success", errorSignature: v === null ? "value_error" : null });
const child = (id: string, op: EvoNode["operator"], parent: string, v: number | null) => ({ ...draft(id, v), operator: op, parents: [parent] });
const drafts = (...vs: (number | null)[]) => vs.map((v, i) => draft(`n${i}`, v));

describe("MCTS (AIRA-dojo)", () => {
  it("defaults are the reference values, shown by the evolve config", () => {
    expect(MCTS_DEFAULTS).toEqual({ c: 0.25, numChildren: 5, maxDebugDepth: 20 });
    expect(EvolveConfig.parse({}).mcts).toEqual(MCTS_DEFAULTS);
    expect(() => EvolveConfig.parse({ mcts: { maxChildren: 3 } })).toThrow();
  });

  it.each([
    { q: 0.5, np: 10, n: 2, c: 0.25, want: 0.5 + 0.25 * Math.sqrt(Math.log(10) / 2) },
    { q: 0, np: 1, n: 1, c: 0.25, want: 0 },
    { q: 1, np: 100, n: 4, c: 1, want: 1 + Math.sqrt(Math.log(100) / 4) },
    { q: 0.9, np: 10, n: 0, c: 0.25, want: -Infinity }, // unvisited ranks last
  ])("uct($q, $np, $n) = $want", ({ q, np, n, c, want }) => expect(uct(q, np, n, c)).toBeCloseTo(want, 12));

  it.each([
    { q: 0.6, lo: 0.2, hi: 1.0, want: 0.5 },
    { q: -3, lo: -5, hi: -1, want: 0.5 }, // signed fitness of a lower-is-better metric
    { q: 0.7, lo: 0.7, hi: 0.7, want: 0.5 }, // one value
    { q: 1.2, lo: 0, hi: 1, want: 1 },
  ])("norm_q($q; $lo..$hi) = $want", ({ q, lo, hi, want }) => expect(normaliseQ(q, lo, hi)).toBeCloseTo(want, 12));

  it("only successes back-propagate: N counts the good nodes of a subtree, Q their mean", () => {
    // n0 0.2 ── n2 improve (buggy);  n1 (buggy) ── n3 debug 0.8 (the fix back-propagates through the buggy child)
    const ns = [draft("n0", 0.2), draft("n1", null), child("n2", "improve", "n0", null), child("n3", "debug", "n1", 0.8)];
    const s = mctsStats(ns);
    expect(s.get("n0")).toEqual({ n: 1, q: 0.2 });
    expect(s.get("n1")).toEqual({ n: 1, q: 0.8 });
    expect(s.get("n2")).toEqual({ n: 0, q: 0 });
    expect(s.get("")!.n).toBe(2);
    expect(s.get("")!.q).toBeCloseTo(0.5, 12);
  });

  it("expands a leaf with 5 children at once: Drafts from the root, then Improve of the same leaf", () => {
    expect(mctsStep([])).toMatchObject({ operator: "draft", parents: [] });
    expect(mctsStep(drafts(0.5, 0.1, 0.2, 0.3))).toMatchObject({ operator: "draft" });
    // Five drafts: select by uct (all N = 1: the best score wins) → improve n0.
    const five = drafts(0.5, 0.1, 0.2, 0.3, 0.4);
    expect(mctsStep(five)).toMatchObject({ operator: "improve", parents: ["n0"] });
    // n0's first child scored 0: uct would now prefer n4, but the expansion of n0 goes on.
    const a = mctsStep([...five, child("n5", "improve", "n0", 0)])!;
    expect(a).toMatchObject({ operator: "improve", parents: ["n0"] });
    expect(a.uct).toBeUndefined();
  });

  it("descends by uct with Q normalised by the global min/max; unvisited children rank last", () => {
    // Drafts n0..n4; n0 expanded: n5 0.9, n6 0.8, n7 buggy (its one-attempt cycle n8 failed), n9 0.7, n10 0.6.
    const ns = [
      ...drafts(0.5, 0.1, 0.2, 0.3, 0.4),
      child("n5", "improve", "n0", 0.9), child("n6", "improve", "n0", 0.8), child("n7", "improve", "n0", null),
      child("n8", "debug", "n7", null), child("n9", "improve", "n0", 0.7), child("n10", "improve", "n0", 0.6),
    ];
    const a = mctsStep(ns, { ...MCTS_DEFAULTS, maxDebugDepth: 1 })!;
    // Global lo = 0.1 (n1), hi = 0.9 (n5); root N = 9 good nodes.
    // n0: N = 5 (n0 n5 n6 n9 n10), Q = 3.5 / 5 = 0.7, norm (0.7 − 0.1) / 0.8 = 0.75.
    expect(a.uct!.n0).toBeCloseTo(0.75 + 0.25 * Math.sqrt(Math.log(9) / 5), 12); // 0.9157
    expect(a.uct!.n4).toBeCloseTo(0.375 + 0.25 * Math.sqrt(Math.log(9)), 12); // 0.7456
    expect(a.uct!.n1).toBeCloseTo(0 + 0.25 * Math.sqrt(Math.log(9)), 12);
    // Inside n0 (N = 5): n5 norm 1 → 1 + 0.25·sqrt(ln 5) = 1.3172; the buggy n7 was never visited.
    expect(a.uct!.n5).toBeCloseTo(1 + 0.25 * Math.sqrt(Math.log(5)), 12);
    expect(a.uct!.n6).toBeCloseTo(0.875 + 0.25 * Math.sqrt(Math.log(5)), 12);
    expect(a.uct!.n7).toBe(-Infinity);
    expect(a).toMatchObject({ operator: "improve", parents: ["n5"] });
  });

  it("a buggy child triggers a debug cycle of up to 20 attempts (or debugTimeCapS) before the next child", () => {
    const chain = (k: number) => {
      const ns = [draft("n0", 0.5), draft("n1", null)];
      for (let i = 0; i < k; i++) ns.push(child(`n${i + 2}`, "debug", `n${i + 1}`, null));
      return ns;
    };
    expect(mctsStep(chain(0))).toMatchObject({ operator: "debug", parents: ["n1"] });
    expect(mctsStep(chain(3))).toMatchObject({ operator: "debug", parents: ["n4"] });
    expect(mctsStep(chain(19))).toMatchObject({ operator: "debug", parents: ["n20"] });
    expect(mctsStep(chain(20))).toMatchObject({ operator: "draft" }); // cycle over: the root's third child
    expect(mctsStep(chain(2), MCTS_DEFAULTS, [], 3)).toMatchObject({ operator: "draft" }); // 3 × 1 s reached the cap
    expect(mctsStep(chain(1), MCTS_DEFAULTS, [], 3)).toMatchObject({ operator: "debug", parents: ["n2"] });
    const fixed = [draft("n0", 0.5), draft("n1", null), child("n2", "debug", "n1", 0.7)];
    expect(mctsStep(fixed)).toMatchObject({ operator: "draft" });
  });

  it("with steps in flight: more children of the open expansion, else wait (null)", () => {
    const d = (n: number) => Array.from({ length: n }, () => ({ operator: "draft" as const, parents: [] }));
    expect(mctsStep([], MCTS_DEFAULTS, d(4))).toMatchObject({ operator: "draft" });
    expect(mctsStep(drafts(0.5, 0.4), MCTS_DEFAULTS, d(3))).toBeNull();
    const busy = drafts(0.5, 0.1, 0.2, 0.3, null);
    expect(mctsStep(busy)).toMatchObject({ operator: "debug", parents: ["n4"] });
    expect(mctsStep(busy, MCTS_DEFAULTS, [{ operator: "debug", parents: ["n4"] }])).toBeNull();
  });

  it("runs in evolve with several workers: five drafts, then the best draft's children", async () => {
    const ws = await openWorkspace(join(tmp("evo-mcts-"), "ws"));
    try {
      const task = writeTinyTask(tmp("evo-task-"));
      const res = await evolve({ task, policy: createTinyPolicy({ bugRate: 0 }), workspace: ws, evaluate: pythonEvaluate, config: { harness: "mcts", steps: 8, seed: 5, workers: 3 } });
      expect(res.nodes.map((n) => n.operator)).toEqual(["draft", "draft", "draft", "draft", "draft", "improve", "improve", "improve"]);
      const first = res.nodes.slice(0, 5);
      const best = first.find((n) => n.fitness === Math.max(...first.map((x) => x.fitness!)))!;
      expect(res.nodes.slice(5).map((n) => n.parents[0])).toEqual([best.nodeId, best.nodeId, best.nodeId]);
    } finally {
      ws.close();
    }
  }, 120_000);
});
