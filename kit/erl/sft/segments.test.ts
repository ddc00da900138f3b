import { describe, expect, it } from "vitest";
import type { Operator } from "../../policy/types.js";
import { extractSegments, type SegmentNode } from "./segments.js";

const n = (step: number, operator: Operator, ...parents: number[]): SegmentNode => ({ nodeId: `n${step}`, step, operator, parents: parents.map((p) => `n${p}`) });

describe("extractSegments", () => {
  // Each row: a tree, and the segments (start operator + step ids) worked out by hand.
  const table: { name: string; nodes: SegmentNode[]; want: [string, string[]][] }[] = [
    { name: "lone draft", nodes: [n(0, "draft")], want: [["draft", ["n0"]]] },
    {
      name: "draft → debug → debug, then an improve of the last debug starts its own segment",
      nodes: [n(0, "draft"), n(1, "debug", 0), n(2, "debug", 1), n(3, "improve", 2), n(4, "debug", 3)],
      want: [["draft", ["n0", "n1", "n2"]], ["improve", ["n3", "n4"]]],
    },
    {
      name: "two debug children of one draft give two segments (lowest step first)",
      nodes: [n(0, "draft"), n(1, "debug", 0), n(2, "debug", 0)],
      want: [["draft", ["n0", "n1"]], ["draft", ["n0", "n2"]]],
    },
    {
      name: "crossover of two drafts, followed by a debug",
      nodes: [n(0, "draft"), n(1, "draft"), n(2, "crossover", 0, 1), n(3, "debug", 2)],
      want: [["draft", ["n0"]], ["draft", ["n1"]], ["crossover", ["n2", "n3"]]],
    },
    { name: "a debug whose parent is not in the tree starts nothing", nodes: [n(5, "debug", 4)], want: [] },
  ];
  for (const row of table) {
    it(row.name, () => {
      expect(extractSegments(row.nodes).map((s) => [s.operator, [...s.steps]])).toEqual(row.want);
      for (const s of extractSegments(row.nodes)) expect(s.endpoint).toBe(s.steps[s.steps.length - 1]);
    });
  }
});
