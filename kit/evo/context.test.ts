import { describe, expect, it } from "vitest";
import {
  conditionedContext, exploredIdeaNodes, exploredIdeas, historyContext, nearestAncestors, nodeUtilities, relatedNodes,
  selectContext, selectedIds, topSiblings,
} from "./context.js";
import { renderShown } from "../policy/shown-context.js";
import { SELECTION_PRESETS } from "./three-factor-selection.js";
import { mkNode } from "./test-helpers/make-node.js";

// A hand-drawn tree:
//   n0 ─┬─ n2 ── n5 ── n8 (improve)        n1 ── n3 (fail, import_error) ── n4 (debug, fail, import_error)
//       ├─ n6 (0.9)                        n7 (fail, timeout)
//       └─ n9 (fail, import_error)        n10 = crossover(n5, n1)
const T = [
  mkNode({ nodeId: "n0", validScore: 0.5 }),
  mkNode({ nodeId: "n1", validScore: 0.6, methodFamily: "xgboost" }),
  mkNode({ nodeId: "n2", operator: "improve", parents: ["n0"], validScore: 0.55 }),
  mkNode({ nodeId: "n3", operator: "improve", parents: ["n1"], status: "runtime_error", errorSignature: "import_error" }),
  mkNode({ nodeId: "n4", operator: "debug", parents: ["n3"], status: "runtime_error", errorSignature: "import_error" }),
  mkNode({ nodeId: "n5", operator: "improve", parents: ["n2"], validScore: 0.7 }),
  mkNode({ nodeId: "n6", operator: "improve", parents: ["n0"], validScore: 0.9 }),
  mkNode({ nodeId: "n7", status: "timeout", errorSignature: "timeout" }),
  mkNode({ nodeId: "n8", operator: "improve", parents: ["n5"], validScore: 0.72 }),
  mkNode({ nodeId: "n9", operator: "improve", parents: ["n0"], status: "runtime_error", errorSignature: "import_error" }),
  mkNode({ nodeId: "n10", operator: "crossover", parents: ["n5", "n1"], validScore: 0.8 }),
];
const by = new Map(T.map((n) => [n.nodeId, n]));
const ids = (ns: readonly { nodeId: string }[]) => ns.map((n) => n.nodeId);
const budget = { remainingSteps: 7, remainingTimeS: 100, perRunTimeLimitS: 30 };

describe("context selection", () => {
  it.each([
    { node: "n8", k: 3, want: ["n5", "n2", "n0"] },
    { node: "n8", k: 1, want: ["n5"] },
    { node: "n10", k: 3, want: ["n5", "n1", "n2"] },
    { node: "n0", k: 3, want: [] },
  ])("ancestors of $node (k=$k)", ({ node, k, want }) => expect(ids(nearestAncestors(by.get(node)!, by, k))).toEqual(want));

  it.each([
    { node: "n2", k: 3, want: ["n6", "n9"] }, // share n0: best first, failures last
    { node: "n8", k: 3, want: ["n10"] }, // the crossover n10 also has parent n5
    { node: "n3", k: 3, want: ["n10"] }, // shares parent n1
    { node: "n0", k: 3, want: [] }, // a draft has no siblings
  ])("siblings of $node", ({ node, k, want }) => expect(ids(topSiblings(by.get(node)!, T, k))).toEqual(want));

  it("Debug's related nodes: same error signature first, then the most recent nodes whatever their outcome; capped", () => {
    const n9 = by.get("n9")!;
    expect(ids(relatedNodes(n9, T, 8))).toEqual(["n4", "n3", "n10", "n8", "n7", "n6", "n5", "n2"]);
    expect(ids(relatedNodes(n9, T, 3))).toEqual(["n4", "n3", "n10"]);
    expect(ids(relatedNodes(by.get("n7")!, T, 3))).toEqual(["n10", "n9", "n8"]); // no other timeout
  });

  // Siblings n1 (0.80, sklearn) and n2 (0.78, xgboost) of n0; n4, n5 are more sklearn drafts.
  const U = [
    mkNode({ nodeId: "n0", validScore: 0.5 }),
    mkNode({ nodeId: "n1", operator: "improve", parents: ["n0"], validScore: 0.8 }),
    mkNode({ nodeId: "n2", operator: "improve", parents: ["n0"], validScore: 0.78, methodFamily: "xgboost" }),
    mkNode({ nodeId: "n3", operator: "improve", parents: ["n0"], status: "runtime_error" }),
    mkNode({ nodeId: "n4", validScore: 0.6 }),
    mkNode({ nodeId: "n5", validScore: 0.7 }),
  ];
  it("siblings are ranked by three-factor utility, not by score", () => {
    // Over the scored nodes (0.5 … 0.8), reference weights 1.0/0.4/0.25:
    // n1: s̃ 1, Δ̃ 0.3/0.3 = 1, ν = 1/sqrt(1+3) (three other sklearn) → u = 1 + 0.4 + 0.125 = 1.525
    // n2: s̃ 0.28/0.3, Δ̃ 0.28/0.3, ν = 1 → u = 0.9333 + 0.3733 + 0.25 = 1.5567
    const u = nodeUtilities(U);
    expect(u.get("n1")).toBeCloseTo(1.525, 12);
    expect(u.get("n2")).toBeCloseTo(0.28 / 0.3 + 0.4 * (0.28 / 0.3) + 0.25, 12);
    expect(u.has("n3")).toBe(false);
    expect(ids(topSiblings(U[3]!, U, 3))).toEqual(["n2", "n1"]);
    expect(ids(topSiblings(U[1]!, U, 3))).toEqual(["n2", "n3"]); // a failure after the scored ones
    // Paper weights 1.0/0.6/0.3: n1 1.75, n2 0.9333 + 0.56 + 0.3 = 1.7933: same order.
    expect(ids(topSiblings(U[3]!, U, 3, nodeUtilities(U, SELECTION_PRESETS.paper)))).toEqual(["n2", "n1"]);
  });

  it("Draft's explored ideas: non-Debug nodes, most recent first, one per family and plan", () => {
    expect(exploredIdeas(T, 3)).toEqual([
      "- [sklearn] plan of n10 → validation 0.8", "- [sklearn] plan of n9 → runtime_error (import_error)", "- [sklearn] plan of n8 → validation 0.72",
    ]);
    const twice = [...T, mkNode({ nodeId: "n11", plan: "plan of n10", validScore: 0.3 })];
    expect(exploredIdeas(twice, 2)).toEqual(["- [sklearn] plan of n10 → validation 0.3", "- [sklearn] plan of n9 → runtime_error (import_error)"]);
    expect(selectedIds(selectContext("draft", [], T))).toEqual([]);
    const nodes = exploredIdeaNodes(T, 3);
    expect(nodes.map((n) => [n.nodeId, n.role, n.idea, n.gain])).toEqual([
      ["n10", "idea", "plan of n10", 0.8 - 0.7], ["n9", "idea", "plan of n9", null],
      ["n8", "idea", "plan of n8", 0.72 - 0.7],
    ]);
    // Draft: the ideas are a section, and no synthesis (ideas are not summarised, no board).
    const draft = conditionedContext(selectContext("draft", [], T), new Map(), budget, { ideas: nodes, nodes: T });
    const titled = (c: typeof draft) => c.shown!.sections.map((s) => [s.title, s.entries.length]);
    expect(titled(draft)).toEqual([["Previously explored ideas (most recent first):", 3]]);
    expect(draft.shown!.synthesis).toBeUndefined();
    expect(draft.memory).toBe(
      "Previously explored ideas (most recent first):\n" + exploredIdeas(T, 3).join("\n") +
      "\nBudget: 7 steps and 100 s remain; each program may run at most 30 s.",
    );
  });

  it.each([
    { op: "draft" as const, parents: [], want: [] },
    { op: "improve" as const, parents: ["n8"], want: ["n8", "n5", "n2", "n0", "n10"] },
    { op: "debug" as const, parents: ["n9"], want: ["n9", "n4", "n3", "n10", "n8", "n7", "n6", "n5", "n2"] },
    { op: "crossover" as const, parents: ["n8", "n6"], want: ["n8", "n6", "n5", "n2", "n0", "n10", "n9"] },
  ])("$op selects only its nodes", ({ op, parents, want }) => {
    expect(selectedIds(selectContext(op, parents.map((p) => by.get(p)!), T))).toEqual(want);
  });

  it("crossover memory says what each branch contributes; improve memory lists ancestors and siblings", () => {
    const sel = selectContext("crossover", [by.get("n8")!, by.get("n1")!], T);
    const ctx = conditionedContext(sel, new Map([["n5", "n5 summary"]]), budget);
    expect(ctx.memory).toContain("Branch A contributes sklearn (n8, validation 0.72)");
    expect(ctx.memory).toContain("Branch B contributes xgboost (n1, validation 0.6)");
    expect(ctx.memory).toContain("ancestor n5 summary");
    expect(ctx.memory).toContain("7 steps and 100 s remain; each program may run at most 30 s");
    expect(ctx.parents.map((p) => p.nodeId)).toEqual(["n8", "n1"]);
    const imp = conditionedContext(selectContext("improve", [by.get("n2")!], T), new Map(), budget);
    expect(imp.memory).toMatch(/Ancestors[^]*- n0[^]*Siblings[^]*- n6\n- n9/);
  });

  it("what each context shows, as data: sections, roles, texts; memory is rendered from it", () => {
    const sums = new Map([["n5", "n5 summary"]]);
    const crossSel = selectContext("crossover", [by.get("n8")!, by.get("n6")!], T);
    const cross = conditionedContext(crossSel, sums, budget, { nodes: T });
    expect(cross.shown!.sections.map((s) => [s.title, s.entries.map((e) => [e.nodeId, e.role, e.text])])).toEqual([
      ["Branch A contributes sklearn (n8, validation 0.72): plan of n8", [
        ["n5", "ancestor", "  ancestor n5 summary"], ["n2", "ancestor", "  ancestor n2"],
        ["n10", "sibling", "  sibling n10"]]],
      ["Branch B contributes sklearn (n6, validation 0.9): plan of n6", [
        ["n0", "ancestor", "  ancestor n0"], ["n2", "sibling", "  sibling n2"], ["n9", "sibling", "  sibling n9"]]],
    ]);
    // Gains over the best parent: n5 0.7 − 0.55, n10 0.8 − max(0.7, 0.6), n2 0.55 − 0.5; n9 failed.
    expect(cross.shown!.synthesis).toEqual({
      worked: ["n5: plan of n5 (+0.15)", "n10: plan of n10 (+0.1)", "n2: plan of n2 (+0.05)"],
      failed: ["n9: plan of n9 (runtime_error, import_error)"], openIdeas: [],
    });
    expect(cross.memory).toBe(renderShown(cross.shown!, budget));
    const imp = conditionedContext(selectContext("improve", [by.get("n2")!], T), new Map(), budget, { nodes: T });
    expect(imp.memory).toBe([
      "Ancestors (nearest first):", "- n0", "Siblings (highest utility first):", "- n6", "- n9",
      "Memory synthesis:", "What worked: n6: plan of n6 (+0.4)",
      "What failed: n9: plan of n9 (runtime_error, import_error)",
      "Budget: 7 steps and 100 s remain; each program may run at most 30 s.",
    ].join("\n"));
    const dbg = conditionedContext(selectContext("debug", [by.get("n9")!], T), new Map(), budget, { nodes: T });
    expect(dbg.shown!.sections[0]!.entries.map((e) => e.role)).toEqual(Array(8).fill("related"));
    expect(dbg.shown!.synthesis!.failed).toEqual([
      "n7: plan of n7 (timeout, timeout)", "n4: plan of n4 (runtime_error, import_error)",
      "n3: plan of n3 (runtime_error, import_error)",
    ]);
    expect(dbg.failures!.map((f) => f.nodeId)).toEqual(["n4", "n3", "n10", "n8", "n7", "n6", "n5", "n2"]);
  });

  it("AIDE/MCTS history shows every node whatever the operator", () => {
    const sums = new Map(T.map((n) => [n.nodeId, `S(${n.nodeId})`]));
    const a = historyContext([by.get("n2")!], T, sums, budget);
    expect(a.memory!.split("\n").filter((l) => l.startsWith("- S("))).toHaveLength(T.length);
    expect(historyContext([by.get("n9")!], T, sums, budget).memory).toBe(a.memory);
    const titles = a.shown!.sections.map((s) => [s.title, s.entries.length]);
    expect(titles).toEqual([["History of all evaluated nodes:", T.length]]);
    expect(new Set(a.shown!.sections[0]!.entries.map((e) => e.role))).toEqual(new Set(["history"]));
    expect(a.shown!.synthesis).toBeUndefined();
    expect(a.memory).toBe(renderShown(a.shown!, budget));
  });
});
