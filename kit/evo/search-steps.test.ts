import { describe, expect, it } from "vitest";
import type { Rng } from "../util/rng.js";
import { aideStep } from "./aide-step.js";
import { debugChain, debugDecision, debugDepth, terminalCategory } from "./debug-chain.js";
import { admits, childLineageDepth, islandMembers, loopGeneration } from "./islands.js";
import { mkNode } from "./test-helpers/make-node.js";
import type { EvoNode } from "./types.js";

const fixed = (...xs: number[]): Rng => { let i = 0; return { next: () => xs[i++ % xs.length]!, int: (n) => Math.floor(xs[i++ % xs.length]! * n), fork: () => fixed(...xs) }; };
const byId = (ns: EvoNode[]) => new Map(ns.map((n) => [n.nodeId, n]));

describe("islands and admission", () => {
  it.each([
    { members: [], f: 0.1, want: true },
    { members: [0.5, 0.7], f: 0.6, want: true }, // = average
    { members: [0.5, 0.7], f: 0.59, want: false },
    { members: [0.5], f: null, want: false },
  ])("admits $f into $members → $want", ({ members, f, want }) => {
    expect(admits(members.map((x, i) => mkNode({ nodeId: `n${i}`, validScore: x })), f)).toBe(want);
  });
  it("replays admissions; past max size the worst member leaves", () => {
    const ns = [0.5, 0.9, 0.7, 0.6].map((v, i) => mkNode({ nodeId: `n${i}`, validScore: v, island: i % 2 }));
    expect(islandMembers(ns, 1, 3)[0]!.map((n) => n.nodeId)).toEqual(["n1", "n2", "n3"]);
    expect(islandMembers(ns, 2, 500).map((m) => m.map((n) => n.nodeId))).toEqual([["n0", "n2"], ["n1", "n3"]]);
  });
  it.each([
    { op: "draft" as const, depths: [], want: 0 },
    { op: "improve" as const, depths: [1], want: 2 },
    { op: "crossover" as const, depths: [0, 3], want: 4 },
    { op: "debug" as const, depths: [2], want: 2 },
  ])("lineage depth of $op from $depths = $want", ({ op, depths, want }) => {
    expect(childLineageDepth(op, depths.map((d, i) => mkNode({ nodeId: `p${i}`, lineageDepth: d })))).toBe(want);
  });
  it.each([
    // gen0Drafts = 2: individuals are the island's non-Debug nodes (finished or in flight).
    { ops: [], want: 0 }, { ops: ["draft"], want: 0 }, { ops: ["draft", "draft"], want: 1 },
    { ops: ["draft", "debug", "debug", "draft"], want: 1 }, { ops: ["draft", "draft", "improve", "improve"], want: 2 },
    { ops: ["draft", "draft", "improve", "improve", "crossover"], want: 2 },
  ] as { ops: EvoNode["operator"][]; want: number }[])("loop generation after $ops = $want", ({ ops, want }) => {
    const ns = ops.map((op, i) => mkNode({ nodeId: `n${i}`, operator: op }));
    expect(loopGeneration(ns, [], 0, 2)).toBe(want);
    expect(loopGeneration(ns.slice(1), ns.slice(0, 1), 0, 2)).toBe(want); // in-flight actions count alike
    expect(loopGeneration(ns, [], 1, 2)).toBe(0); // another island
  });
  it("generation 0 admits every successful draft; the island-average test applies from generation 1", () => {
    const members = [mkNode({ nodeId: "n0", validScore: 0.9 })];
    expect(admits(members, 0.1, "island-average", 0)).toBe(true);
    expect(admits(members, 0.1, "island-average", 1)).toBe(false);
    expect(admits(members, null, "island-average", 0)).toBe(false);
  });
});

describe("debug chains", () => {
  const lim = { maxAttempts: 3, timeCapS: 0, sameSignatureDraft: 2 };
  it.each([["timeout", "timeout"], ["gpu_memory_error", "memory"], ["key_error", null], [null, null]])("terminal category of %s = %s", (sig, cat) => {
    expect(terminalCategory(sig)).toBe(cat);
  });
  const chain = (sigs: (string | null)[], rootOk = false, rootSig = "a") => {
    const ns = [mkNode({ nodeId: "n0", status: rootOk ? "success" : "runtime_error", errorSignature: rootSig })];
    sigs.forEach((s, i) => ns.push(mkNode({ nodeId: `n${i + 1}`, operator: "debug", parents: [`n${i}`], status: s === null ? "success" : "runtime_error", errorSignature: s })));
    return ns;
  };
  it.each([
    { sigs: [], want: "debug" }, // a buggy child enters a chain
    { sigs: ["a"], want: "debug" },
    { sigs: ["a", "b"], want: "debug" },
    { sigs: ["key_error", "key_error"], want: "debug" }, // a repeated fixable signature keeps debugging
    { sigs: ["value_error", "value_error", "value_error"], want: "draft" }, // … up to the attempt cap, then a fresh draft
    { sigs: ["b", "timeout", "timeout"], want: "draft" }, // the last two failures timed out → fresh draft
    { sigs: ["import_error"], root: "import_error", want: "draft" }, // the buggy node and its first repair
    { sigs: ["memory_error", "gpu_memory_error"], want: "draft" }, // one category: memory
    { sigs: ["sandbox_error", "missing_code"], want: "draft" }, // pre-flight failures
    { sigs: ["timeout", "import_error"], want: "debug" }, // two terminal but different categories
    { sigs: ["a", "b", "c"], want: "draft" }, // attempt cap reached: the lane drafts afresh (reference)
    { sigs: ["a", null], want: "none" }, // repaired
  ] as { sigs: (string | null)[]; want: string; root?: string }[])("after debug attempts $sigs → $want", ({ sigs, want, root }) => {
    const ns = chain(sigs, false, root);
    expect(debugDecision(ns.at(-1)!, byId(ns), lim)).toBe(want);
  });
  it("time cap counts the chain's sandbox seconds (then a fresh draft); depth counts Debug steps", () => {
    const ns = chain(["a", "b"]);
    expect(debugDecision(ns.at(-1)!, byId(ns), { ...lim, timeCapS: 3 })).toBe("draft"); // 3 nodes × 1 s
    expect(debugDecision(ns.at(-1)!, byId(ns), { ...lim, maxAttempts: 0 })).toBe("none"); // chains off
    expect(debugDecision(ns.at(-1)!, byId(ns), { ...lim, timeCapS: 4 })).toBe("debug");
    expect(debugChain(ns.at(-1)!, byId(ns)).map((n) => n.nodeId)).toEqual(["n0", "n1", "n2"]);
    expect(debugDepth(ns.at(-1)!, byId(ns))).toBe(2);
  });
});

describe("AIDE greedy", () => {
  const drafts = (k: number, bad: number[] = []) =>
    Array.from({ length: k }, (_, i) => mkNode({ nodeId: `n${i}`, validScore: bad.includes(i) ? null : 0.1 * (i + 1), status: bad.includes(i) ? "runtime_error" : "success" }));
  it.each([
    { ns: drafts(4), r: [0.9], want: { operator: "draft", parents: [] } },
    { ns: drafts(5, [1]), r: [0.4, 0.0], want: { operator: "debug", parents: ["n1"] } }, // p < 0.5 → debug a buggy leaf
    { ns: drafts(5, [1]), r: [0.6], want: { operator: "improve", parents: ["n4"] } }, // else improve the best
    { ns: drafts(5, [0, 1, 2, 3, 4]), r: [0.6], want: { operator: "draft", parents: [] } }, // no good node
    { ns: drafts(5), r: [0.1], want: { operator: "improve", parents: ["n4"] } }, // no buggy leaf
  ])("$want.operator $want.parents", ({ ns, r, want }) => expect(aideStep(ns, fixed(...r))).toMatchObject(want));
  it("skips buggy leaves deeper than 3 debug steps", () => {
    const ns = drafts(5);
    ns.push(mkNode({ nodeId: "n5", status: "runtime_error" }));
    for (let i = 6; i <= 9; i++) ns.push(mkNode({ nodeId: `n${i}`, operator: "debug", parents: [`n${i - 1}`], status: "runtime_error" }));
    expect(aideStep(ns, fixed(0.1, 0))).toMatchObject({ operator: "improve", parents: ["n4"] }); // n9 has depth 4
    expect(aideStep(ns.slice(0, 9), fixed(0.1, 0))).toMatchObject({ operator: "debug", parents: ["n8"] }); // depth 3
  });
});

describe("OpenMLE-Evo / AIRA-Evo step", async () => {
  const { EvolveConfig } = await import("./config.js");
  const { evoStep } = await import("./evo-step.js");
  const cfg = EvolveConfig.parse({ gen0Drafts: 2 });
  const base = { step: 0, last: null, pending: [], config: cfg };
  it("drafts generation 0, counting drafts in flight", () => {
    expect(evoStep({ ...base, nodes: [mkNode({ nodeId: "n0" })], rng: fixed(0) })).toMatchObject({ operator: "draft", generation: 0 });
    expect(evoStep({ ...base, nodes: [mkNode({ nodeId: "n0" })], pending: [{ operator: "draft", parents: [], island: 0 }], rng: fixed(0) })).toMatchObject({ operator: "improve", generation: 1 });
  });
  it("a buggy last node gets Debug; repeated fixable failures keep debugging; two terminal ones give a fresh Draft", () => {
    const ns = [mkNode({ nodeId: "n0" }), mkNode({ nodeId: "n1", status: "runtime_error", errorSignature: "key_error" })];
    expect(evoStep({ ...base, nodes: ns, last: ns[1]!, rng: fixed(0) })).toMatchObject({ operator: "debug", parents: ["n1"] });
    ns.push(mkNode({ nodeId: "n2", operator: "debug", parents: ["n1"], status: "runtime_error", errorSignature: "key_error" }));
    expect(evoStep({ ...base, nodes: ns, last: ns[2]!, rng: fixed(0) })).toMatchObject({ operator: "debug", parents: ["n2"] });
    ns.push(mkNode({ nodeId: "n3", operator: "debug", parents: ["n2"], status: "timeout", errorSignature: "timeout" }));
    ns.push(mkNode({ nodeId: "n4", operator: "debug", parents: ["n3"], status: "timeout", errorSignature: "timeout" }));
    expect(evoStep({ ...base, nodes: ns, last: ns[4]!, rng: fixed(0) })).toMatchObject({ operator: "draft" });
  });
  it("Crossover is gated by loop generation (>= 2, p = 0.5), not by lineage depth; parents by the sampled probabilities", () => {
    // Loop generation 1 (2 drafts done): Improve only, although n2 is deep in its lineage.
    const g1 = [mkNode({ nodeId: "n0", validScore: 0.5 }), mkNode({ nodeId: "n1", validScore: 0.7 }), mkNode({ nodeId: "n2", operator: "debug", parents: ["n1"], validScore: 0.8, lineageDepth: 5 })];
    const a = evoStep({ ...base, nodes: g1, rng: fixed(0.99, 0) });
    expect(a).toMatchObject({ operator: "improve", parents: ["n2"], generation: 1 }); // u = 0.99 lands on the last member
    expect(a.selection!.reduce((s, p) => s + p.probability, 0)).toBeCloseTo(1, 12);
    expect(evoStep({ ...base, nodes: g1, rng: fixed(0.0, 0.0) }).operator).toBe("improve");
    // Two Improve children (lineage depth 1) complete generation 1: generation 2 may cross over.
    const g2 = [...g1, mkNode({ nodeId: "n3", operator: "improve", parents: ["n0"], validScore: 0.9, lineageDepth: 1 }), mkNode({ nodeId: "n4", operator: "improve", parents: ["n1"], validScore: 0.6, lineageDepth: 1 })];
    expect(evoStep({ ...base, nodes: g2, rng: fixed(0.0, 0.4, 0.0) })).toMatchObject({ operator: "crossover", parents: ["n0", "n1"], generation: 2 });
    expect(evoStep({ ...base, nodes: g2, rng: fixed(0.0, 0.6) })).toMatchObject({ operator: "improve", parents: ["n0"] });
  });
  it("novelty N_f counts the island members' cards of the family, the candidate excluded", async () => {
    const { parentProbabilities } = await import("./evo-step.js");
    const members = [mkNode({ nodeId: "n0", methodFamily: "sklearn" }), mkNode({ nodeId: "n1", methodFamily: "sklearn" }), mkNode({ nodeId: "n2", methodFamily: "xgboost" })];
    // A non-member of the family elsewhere in the run does not count.
    const all = [...members, mkNode({ nodeId: "n3", methodFamily: "xgboost", admitted: false, status: "runtime_error" })];
    const p = parentProbabilities(members, all, cfg);
    // All scores equal (min-max gives s̃ = 0.5) and no gains: u = 0.5 + 0.25·ν, ν(sklearn) = 1/sqrt(1 + 1), ν(xgboost) = 1/sqrt(1 + 0).
    [0.5 + 0.25 / Math.sqrt(2), 0.5 + 0.25 / Math.sqrt(2), 0.75].forEach((u, i) => expect(p[i]!.utility).toBeCloseTo(u, 12));
  });
});
