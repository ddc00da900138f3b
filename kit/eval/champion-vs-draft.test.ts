import { describe, expect, it } from "vitest";
import { championVsDraft, type ComparedNode } from "./champion-vs-draft.js";

const n = (nodeId: string, operator: string, validScore: number | null, testScore: number | null, status = "success"): ComparedNode => ({
  nodeId, operator, status, validScore, testScore,
});

describe("championVsDraft: the champion's gain over the best draft, on validation and on the hidden test", () => {
  it.each([
    {
      name: "lower is better, gain on validation only (the README's main job: cars, RMSE)",
      hib: false,
      nodes: [
        n("n0000", "draft", 3.30621, 3.43), n("n0001", "draft", 3.00488, 2.97771), n("n0003", "draft", 3.06033, 3.22361),
        n("n0009", "improve", 2.99819, 3.05163), n("n0011", "improve", 3.02398, 3.00452),
      ],
      // gains: −(2.99819 − 3.00488) = 0.00669 on validation, −(3.05163 − 2.97771) = −0.07392 on the hidden test
      want: { champion: "n0009", draft: "n0001", validGain: 0.00669, testGain: -0.07392, state: "disagree", flag: true },
    },
    {
      name: "higher is better, both gains positive",
      hib: true,
      nodes: [n("a", "draft", 0.8, 0.78), n("b", "draft", 0.7, 0.75), n("c", "crossover", 0.9, 0.85)],
      want: { champion: "c", draft: "a", validGain: 0.1, testGain: 0.07, state: "agree", flag: false },
    },
    {
      name: "a zero test gain flags (validation bought nothing on the test)",
      hib: true,
      nodes: [n("a", "draft", 0.5, 0.6), n("b", "improve", 0.7, 0.6)],
      want: { champion: "b", draft: "a", validGain: 0.2, testGain: 0, state: "disagree", flag: true },
    },
    {
      name: "a failed node with a better score is not valid; the champion is the best draft itself",
      hib: true,
      nodes: [n("a", "draft", 0.9, 0.8), n("b", "improve", 0.95, 0.99, "runtime_error"), n("c", "improve", 0.85, 0.9)],
      want: { champion: "a", draft: "a", validGain: 0, testGain: 0, state: "no-gain", flag: false },
    },
    {
      name: "the champion's submission was not graded: no test gain, no flag",
      hib: true,
      nodes: [n("a", "draft", 0.5, 0.6), n("b", "improve", 0.7, null)],
      want: { champion: "b", draft: "a", validGain: 0.2, testGain: null, state: "no-test", flag: false },
    },
    {
      name: "no draft scored (the champion repairs a failed draft)",
      hib: true,
      nodes: [n("a", "draft", null, null, "runtime_error"), n("b", "debug", 0.7, 0.6)],
      want: { champion: "b", draft: null, validGain: null, testGain: null, state: "no-draft", flag: false },
    },
    {
      name: "nothing scored",
      hib: false,
      nodes: [n("a", "draft", null, null, "timeout")],
      want: { champion: null, draft: null, validGain: null, testGain: null, state: "no-champion", flag: false },
    },
    {
      name: "ties go to the first node (as kit/evo's champion)",
      hib: false,
      nodes: [n("a", "draft", 2, 2.1), n("b", "draft", 2, 1.9), n("c", "improve", 1.5, 2.0)],
      want: { champion: "c", draft: "a", validGain: 0.5, testGain: 0.1, state: "agree", flag: false },
    },
  ])("$name", ({ nodes, hib, want }) => {
    const r = championVsDraft(nodes, hib);
    expect(r.champion?.nodeId ?? null).toBe(want.champion);
    expect(r.bestDraft?.nodeId ?? null).toBe(want.draft);
    for (const k of ["validGain", "testGain"] as const)
      if (want[k] === null) expect(r[k]).toBeNull();
      else expect(r[k]).toBeCloseTo(want[k]!, 12);
    expect([r.state, r.flag]).toEqual([want.state, want.flag]);
  });
});

describe("championVsDraft with the run's own champion named", () => {
  const nodes = [n("a", "draft", 0.5, 0.5), n("b", "improve", 0.7, 0.6), n("c", "improve", 0.7, 0.4), n("d", "debug", null, null, "bug")];
  it.each([
    // the stored champion c ties b on validation: c is compared, gain test = 0.4 − 0.5 = −0.1 → flagged
    { id: "c", want: { champion: "c", testGain: -0.1, state: "disagree" } },
    // without a name the first best wins (b): test gain 0.6 − 0.5 = 0.1
    { id: undefined, want: { champion: "b", testGain: 0.1, state: "agree" } },
    // a named node that is not valid falls back to the rule
    { id: "d", want: { champion: "b", testGain: 0.1, state: "agree" } },
  ])("championId $id", ({ id, want }) => {
    const r = championVsDraft(nodes, true, id);
    expect(r.champion?.nodeId).toBe(want.champion);
    expect(r.testGain).toBeCloseTo(want.testGain, 12);
    expect(r.state).toBe(want.state);
  });
});
