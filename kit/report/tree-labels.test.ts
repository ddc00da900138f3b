import { describe, expect, it } from "vitest";
import { labelFontPx, placeTreeLabels, type LabelCandidate } from "./tree-labels.js";

const c = (id: string, x: number, y: number, priority: number): LabelCandidate => ({ id, x, y, initial: "I", score: "2.998", priority });
// Plot 100 px per data unit across (x 0..10 on 1000 px) and per depth (y 0..4 on 400 px); font 10 px, markers 10 px.
// A one-line label "I 2.998" is 7 · 0.6 · 10 = 42 px wide, 12.5 px high; two lines "I" / "2.998" 30 px wide, 25 px high.
const geo = (unitPx: number) => ({ widthPx: 10 * unitPx, heightPx: 400, xRange: [0, 10] as const, yRange: [0, 4] as const, fontPx: 10, markerPx: 10 });

describe("placeTreeLabels: readable labels, none overlapping", () => {
  it.each([
    { name: "siblings 100 px apart: both one-line", unitPx: 100, cands: [c("a", 1, 1, 0), c("b", 2, 1, 1)], want: { a: "I 2.998", b: "I 2.998" } },
    // 40 px apart: the 42 px one-line labels would overlap (by 2 px); the second falls back to two lines (30 px: 15 + 21 < 40).
    { name: "40 px apart: the second label goes two-line", unitPx: 40, cands: [c("a", 1, 1, 0), c("b", 2, 1, 1)], want: { a: "I 2.998", b: "I<br>2.998" } },
    // 20 px apart: neither form fits beside the first; priority decides who keeps its label.
    { name: "20 px apart: only the higher priority", unitPx: 20, cands: [c("a", 1, 1, 1), c("b", 2, 1, 0)], want: { b: "I 2.998" } },
    // A marker 20 px below the node (y 1.2) spans 15..25 px below it: the one-line label (6..18.5 px) and the two-line one
    // (6..31 px) both overlap it.
    { name: "a marker right below blocks the label", unitPx: 100, cands: [c("a", 1, 1, 0)], markers: [{ x: 1, y: 1.2 }], want: {} },
  ])("$name", ({ unitPx, cands, markers, want }) => {
    const all = [...cands.map((k) => ({ x: k.x, y: k.y })), ...(markers ?? [])];
    expect(Object.fromEntries(placeTreeLabels(cands, all, geo(unitPx)))).toEqual(want);
  });
  it.each([[16, 11], [40, 11], [41, 10], [100, 10], [160, 9]])("font for %d nodes: %d px", (n, px) => expect(labelFontPx(n)).toBe(px));
});
