import { describe, expect, it } from "vitest";
import type { ShownNode } from "../policy/types.js";
import { shownSynthesis } from "./shown-synthesis.js";

const e = (nodeId: string, p: Partial<ShownNode> = {}): ShownNode => ({
  nodeId, operator: "improve", role: "ancestor", methodFamily: "sklearn", models: [], status: "success",
  validScore: 0.5, errorSignature: null, gain: null, change: null, idea: `idea ${nodeId}`, text: `- ${nodeId}`, ...p,
});
const steps = new Map([["a", 1], ["b", 2], ["c", 3], ["d", 4], ["f", 5]]);

describe("shownSynthesis", () => {
  it.each([
    { name: "nothing to say", entries: [e("a")], open: [], want: undefined },
    {
      name: "only open ideas", entries: [], open: ["xgboost", "cv"],
      want: { worked: [], failed: [], openIdeas: ["try xgboost", "try cv"] },
    },
    {
      // Best gain first, capped at 3; 0.123456 → 4 significant digits.
      name: "worked",
      entries: [
        e("a", { gain: 0.05 }), e("b", { gain: 0.123456 }), e("c", { gain: 0.2 }), e("d", { gain: 0.01 }),
        e("f", { gain: 0 }),
      ],
      open: [],
      want: { worked: ["c: idea c (+0.2)", "b: idea b (+0.1235)", "a: idea a (+0.05)"], failed: [], openIdeas: [] },
    },
    {
      // Failures and losses, most recent (highest step) first, capped at 3.
      name: "failed",
      entries: [
        e("a", { status: "timeout" }), e("b", { status: "runtime_error", errorSignature: "import_error" }),
        e("c", { gain: -0.0250001 }), e("d", { status: "missing_code" }), e("f", { gain: 0.1 }),
      ],
      open: ["ensemble"],
      want: {
        worked: ["f: idea f (+0.1)"],
        failed: ["d: idea d (missing_code)", "c: idea c (gain -0.025)", "b: idea b (runtime_error, import_error)"],
        openIdeas: ["try ensemble"],
      },
    },
    {
      // Draft ideas are not summarised; a node shown twice (two crossover branches) counts once.
      name: "ideas and repeats",
      entries: [e("a", { role: "idea", gain: 0.3 }), e("b", { gain: 0.1 }), e("b", { role: "sibling", gain: 0.1 })],
      open: [],
      want: { worked: ["b: idea b (+0.1)"], failed: [], openIdeas: [] },
    },
  ])("$name", ({ entries, open, want }) => expect(shownSynthesis(entries, open, steps)).toEqual(want));
});
