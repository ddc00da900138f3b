import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runToySearch, TOY_TASK_ID, toyBaselines } from "../../bench/eval/toy-search.js";
import { openWorkspace } from "../store/index.js";
import { CHROMIUM_PATH, gradeDistributionFigure, searchTreeFigure, softmax, writeReport } from "./index.js";

describe("softmax (selection probabilities)", () => {
  test.each([
    [[0, 0], 1, [0.5, 0.5]],
    [[Math.log(3), 0], 1, [0.75, 0.25]],
    [[2 * Math.log(3), 0], 2, [0.75, 0.25]],
    [[1000, 1000, 1000, 1000], 1, [0.25, 0.25, 0.25, 0.25]],
  ])("softmax(%j, T=%d)", (u, t, p) => softmax(u, t).forEach((v, i) => expect(v).toBeCloseTo(p[i]!, 12)));
  test("T must be positive", () => expect(() => softmax([1], 0)).toThrow(/temperature/));
});

describe("figures are pure functions of rows", () => {
  test("search tree: one edge segment per parent link, one trace per operator", () => {
    const fig = searchTreeFigure([
      { node_id: "a", step: 0, generation: 0, operator: "draft", parents: [], valid_score: 0.5 },
      { node_id: "b", step: 1, generation: 1, operator: "improve", parents: ["a"], valid_score: 0.6 },
      { node_id: "c", step: 2, generation: 2, operator: "crossover", parents: ["a", "b"], valid_score: null },
    ]);
    expect((fig.data[0]!.x as unknown[]).length).toBe(9); // 3 links × (from, to, gap)
    expect(fig.data.slice(1).map((t) => t.name)).toEqual(["draft", "improve", "crossover"]);
  });
  test("grade distribution stacks six grades", () => {
    const fig = gradeDistributionFigure([{ group: "g", grades: { gold: 1, silver: 0, bronze: 2, none: 3, invalid: 1, ungraded: 4 } }]);
    expect(fig.data.map((t) => (t.y as number[])[0])).toEqual([1, 0, 2, 3, 1, 4]);
  });
});

const noChromium = !existsSync(CHROMIUM_PATH);
if (noChromium) console.warn(`report test skipped: ${CHROMIUM_PATH} is not installed (apt-get install chromium)`);

describe("writeReport over a workspace filled by a real toy search", () => {
  test.skipIf(noChromium)("self-contained HTML, every chart draws in Chromium offline, one PNG per chart", async () => {
    const root = mkdtempSync(join(tmpdir(), "report-"));
    const ws = await openWorkspace(join(root, "ws"));
    try {
      for (const harness of ["toy-greedy", "toy-evo"] as const) for (const seed of [1, 2]) await runToySearch(ws, { seed, harness, steps: 10 });
      const events: string[] = [];
      const r = await writeReport(ws, join(root, "out"), { baselines: { [TOY_TASK_ID]: toyBaselines() }, maxTrees: 2, onEvent: (e) => events.push(e.type) });
      const html = readFileSync(r.html, "utf8");
      expect(html).not.toMatch(/<script[^>]+src=/); // plotly inlined, nothing fetched
      expect(html).toContain("Plotly");
      expect(r.figures.length).toBeGreaterThanOrEqual(8);
      for (const f of r.figures) {
        expect(f, f.id).toMatchObject({ drawn: true, hasSvg: true });
        const png = readFileSync(f.png!);
        expect(png.subarray(1, 4).toString()).toBe("PNG");
        expect(png.length).toBeGreaterThan(2000);
      }
      expect(r.figures.map((f) => f.id)).toEqual(expect.arrayContaining(["normalized-score", "valid-rate", "grade-distribution", "modality", "best-over-time", "operator-gains", "prompt-size", "selection-probabilities"]));
      expect(events).toEqual(expect.arrayContaining(["evaluated", "html-written", "png-written"]));
      const summary = JSON.parse(readFileSync(r.summary, "utf8")) as { groups: { k: number }[] };
      expect(summary.groups.map((g) => g.k)).toEqual([2, 2]);
    } finally {
      ws.close();
    }
  });
});
