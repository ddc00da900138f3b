import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, test } from "vitest";
import { EvolveConfig, evolve, fitnessSoftmax, type EvoNode } from "../evo/index.js";
import { pythonEvaluate } from "../evo/test-helpers/python-evaluator.js";
import { createTinyPolicy } from "../evo/test-helpers/tiny-policy.js";
import { writeTinyTask } from "../evo/test-helpers/tiny-task.js";
import { openWorkspace } from "../store/index.js";
import {
  CHROMIUM_ARGS, CHROMIUM_PATH, diffText, formatNumber, formatValue, gradeDistributionFigure, htmlTable, lineDiff, searchTreeFigure,
  selectionAtStep, softmax, treeLayout, writeReport,
} from "./index.js";

describe("softmax (selection probabilities)", () => {
  test.each([
    [[0, 0], 1, [0.5, 0.5]],
    [[Math.log(3), 0], 1, [0.75, 0.25]],
    [[2 * Math.log(3), 0], 2, [0.75, 0.25]],
    [[1000, 1000, 1000, 1000], 1, [0.25, 0.25, 0.25, 0.25]],
  ])("softmax(%j, T=%d)", (u, t, p) => softmax(u, t).forEach((v, i) => expect(v).toBeCloseTo(p[i]!, 12)));
  test("T must be positive", () => expect(() => softmax([1], 0)).toThrow(/temperature/));
});

describe("formatting for people", () => {
  test.each([
    [2.596636, "2.597"], [0.000123456, "0.0001235"], [12, "12"], [123456, "123,456"], [1234.56, "1,235"], [0.5, "0.5"], [NaN, null], [Infinity, null],
  ])("formatNumber(%d) = %s", (x, s) => expect(formatNumber(x)).toBe(s));
  test.each([
    [[1, 2.5], "1, 2.5"], [{ draft: 0.25, improve: 0.75 }, "draft 0.25, improve 0.75"], [[], null], [true, "yes"], [null, null],
  ])("formatValue(%j) = %s", (v, s) => expect(formatValue(v)).toBe(s));
  test("tables show — with the reason, never NaN or JSON", () => {
    const html = htmlTable([{ a: NaN, b: { x: 1 }, c: null }], { reasons: { a: "not measured", c: "no leaderboard" } });
    expect(html).not.toMatch(/NaN|>[{[]/);
    expect(html).toContain('title="not measured">—');
    expect(html).toContain('title="no leaderboard">—');
    expect(html).toContain("x 1");
  });
});

describe("line diff", () => {
  test.each([
    ["a\nb\nc", "a\nc", [" a", "-b", " c"]],
    ["a\nc", "a\nb\nc", [" a", "+b", " c"]],
    ["x", "y", ["-x", "+y"]],
    ["", "", [" "]],
  ])("%j → %j", (a, b, ops) => expect(lineDiff(a, b).map((l) => `${l.op}${l.text}`)).toEqual(ops));
  test("long unchanged runs fold to …", () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n");
    expect(diffText(lineDiff(a, a.replace("l10", "L10")), 1).split("\n")).toEqual(["  …", "  l9", "- l10", "+ L10", "  l11", "  …"]);
  });
});

describe("tidy tree layout", () => {
  const nodes = [
    { nodeId: "a", parents: [], step: 0 }, { nodeId: "b", parents: [], step: 1 }, { nodeId: "c", parents: ["a"], step: 2 },
    { nodeId: "d", parents: ["a"], step: 3 }, { nodeId: "e", parents: ["c", "b"], step: 4 },
  ];
  test("drafts at depth 1, children one below their first parent, further parents as crossover edges", () => {
    const l = treeLayout(nodes);
    expect(["a", "b", "c", "d", "e"].map((id) => l.pos.get(id)!.y)).toEqual([1, 1, 2, 2, 3]);
    expect(l.edges).toEqual([["a", "c"], ["a", "d"], ["c", "e"]]);
    expect(l.crossEdges).toEqual([["b", "e"]]);
    const x = (id: string) => l.pos.get(id)!.x;
    expect(x("c")).toBeLessThan(x("d")); // siblings in step order
    expect(x("a")).toBeCloseTo((x("c") + x("d")) / 2, 9); // a parent centred over its children
    expect(x("b")).toBeGreaterThan(x("d"));
  });
  test("failed nodes are grey crosses whatever the metric direction; crossover edges dashed", () => {
    for (const higherIsBetter of [true, false]) {
      const fig = searchTreeFigure([
        { node_id: "a", step: 0, generation: 0, operator: "draft", parents: [], valid_score: 0.5, status: "success" },
        { node_id: "b", step: 1, generation: 0, operator: "draft", parents: [], valid_score: 0.7, status: "success" },
        { node_id: "c", step: 2, generation: 1, operator: "crossover", parents: ["a", "b"], valid_score: null, status: "runtime_error" },
      ], { higherIsBetter });
      const failed = fig.data.find((t) => t.name === "no score (failed)")!;
      expect(failed.customdata).toEqual(["c"]);
      expect(failed.marker).toMatchObject({ symbol: "x-thin-open", color: "#8c8c8c" });
      expect(String((failed.text as string[])[0])).toContain("runtime_error");
      expect(fig.data.find((t) => t.name === "crossover parent")!.line).toMatchObject({ dash: "dash" });
      expect((fig.data.find((t) => t.name === "draft (D)")!.marker as { reversescale: boolean }).reversescale).toBe(!higherIsBetter);
    }
  });
  test("grade distribution stacks six grades", () => {
    const fig = gradeDistributionFigure([{ group: "g", grades: { gold: 1, silver: 0, bronze: 2, none: 3, invalid: 1, ungraded: 4 } }]);
    expect(fig.data.map((t) => (t.y as number[])[0])).toEqual([1, 0, 2, 3, 1, 4]);
  });
});

describe("selection at a step, recomputed from the stored tree", () => {
  const node = (step: number, fitness: number | null, parents: string[] = [], family = "linear"): EvoNode => ({
    nodeId: `n${step}`, step, island: 0, generation: parents.length ? 1 : 0, lineageDepth: parents.length ? 1 : 0, operator: parents.length ? "improve" : "draft", parents, status: fitness === null ? "runtime_error" : "success",
    errorSignature: null, validScore: fitness, testScore: null, fitness, admitted: fitness !== null, plan: "", code: "", logProb: null, executionId: "x",
    sandboxS: 0, traceback: null, stdoutTail: "", methodFamily: family, imports: [],
  });
  test("only nodes issued before the step; AIRA-Evo = softmax(minmax(fitness)); three-factor hand-computed", () => {
    const nodes = [node(0, 0), node(1, 1), node(2, null), node(3, 2, ["n1"]), node(4, 0.5, ["n3"])];
    const s = selectionAtStep(nodes, EvolveConfig.parse({ harness: "openmle" }), 4);
    expect(s.rows.map((r) => r.nodeId)).toEqual(["n0", "n1", "n3"]); // n2 failed, n4 not yet issued
    const aira = fitnessSoftmax([0, 1, 2]);
    s.rows.forEach((r, i) => expect(r.pAira).toBeCloseTo(aira[i]!, 12));
    // reference weights 1.0/0.4/0.25; s̃ = [0, .5, 1]; Δ̃ = [0, 0, 1] (n3 gains 1 over n1); N_f = the other island members in
    // "linear", the candidate excluded (issue 14.4): 2 → ν = 1/√3.
    const nu = 0.25 / Math.sqrt(3);
    expect(s.rows.map((r) => r.utility)).toEqual([nu, 0.5 + nu, 1 + 0.4 + nu].map((u) => expect.closeTo(u, 12)));
    expect(s.rows.reduce((a, r) => a + r.pThreeFactor, 0)).toBeCloseTo(1, 12);
    expect(s.rows.map((r) => r.chosen)).toEqual([false, false, true]); // n4 improved n3
    expect(s.sampledBy).toBe("three-factor");
  });
});

const noChromium = !existsSync(CHROMIUM_PATH);
if (noChromium) console.warn(`report tests skipped: ${CHROMIUM_PATH} is not installed (apt-get install chromium)`);
const shots = join(import.meta.dirname, "..", "..", "reports", "screenshots");

describe("writeReport over a real evolve run (tiny task, real Python programs)", () => {
  test.skipIf(noChromium)("opens with the result, writes best_solution.py, PNG (2×) and SVG per figure; the tree opens a node's code", async () => {
    const root = mkdtempSync(join(tmpdir(), "report-"));
    const task = writeTinyTask(join(root, "task"));
    const ws = await openWorkspace(join(root, "ws"));
    let runId: string;
    try {
      const res = await evolve({ task, policy: createTinyPolicy({ bugRate: 0.3 }), workspace: ws, evaluate: pythonEvaluate, config: { steps: 14, seed: 5, gen0Drafts: 3, crossoverMinGeneration: 1 } });
      runId = res.runId;
    } finally {
      ws.close();
    }
    const r = await writeReport(join(root, "ws"), join(root, "out"), { run: runId });
    const html = readFileSync(r.html, "utf8");
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html.replace(/<script[^>]*>[\s\S]*?<\/script>/g, "")).not.toMatch(/NaN|undefined/);
    expect(readFileSync(r.bestSolution!, "utf8")).toContain(r.results[0]!.champion!.code.split("\n")[0]);
    for (const f of r.figures) {
      expect(f, f.id).toMatchObject({ drawn: true, hasSvg: true });
      const png = readFileSync(f.png!);
      expect(png.subarray(1, 4).toString()).toBe("PNG");
      expect(png.readUInt32BE(16)).toBeGreaterThan(1500); // 2× device pixels (the page is 1100 px wide)
      expect(readFileSync(f.svg!, "utf8")).toMatch(/^<svg/);
    }
    expect(r.figures.map((f) => f.id)).toEqual(expect.arrayContaining([`tree-${runId}`, `selection-${runId}`, "best-over-time"]));

    mkdirSync(shots, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
      await page.goto(`file://${r.html}`);
      await page.waitForSelector(`#tree-${runId}[data-drawn="1"]`);
      const head = await page.locator(".openmle-headline").first().innerText();
      for (const k of ["task", "harness · policy", "champion", "validation score", "hidden test score", "grade", "node valid rate", "submission validity", "throughput", "budget used"]) expect(head).toContain(k);
      expect(head).toMatch(/throughput\s+[\d.]+ nodes\/min \(14 nodes in [\d.]+ s of wall time, 1 worker\) · [\d.]+% in programs, [\d.]+% kit/);
      expect(head).toContain(r.results[0]!.champion!.nodeId);
      await page.screenshot({ path: join(shots, "report-top.png") });
      // Click a real marker of the tree (plotly's click handling: move, then click at its centre).
      const point = page.locator(`#tree-${runId} .scatterlayer .trace .point`).nth(3);
      await page.locator(`#tree-${runId}`).scrollIntoViewIfNeeded();
      const box = (await point.boundingBox())!; // viewport coordinates once scrolled into view
      const panel = page.locator(`#tree-${runId}-panel`);
      await expect.poll(async () => {
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.waitForTimeout(150); // plotly finds the hovered point, then takes the click
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        return (await panel.getAttribute("data-node")) ?? "";
      }, { timeout: 15_000 }).toMatch(/^n\d{4}$/);
      const text = await panel.innerText();
      expect(text).toMatch(/Plan[\s\S]*Code[\s\S]*import/);
      expect(text).toContain("Experience card");
      await page.locator(".openmle-tree").first().screenshot({ path: join(shots, "report-tree-node.png") });
    } finally {
      await browser.close();
    }
  }, 120_000);

  test("bad input: missing workspace (CLI: one line, exit 1), unknown run, empty run", async () => {
    const root = mkdtempSync(join(tmpdir(), "report-bad-"));
    const cli = (...a: string[]) => spawnSync(process.execPath, [join(import.meta.dirname, "..", "..", "bin", "openmle.js"), "report", "--no-png", "--out", join(root, "out"), ...a], { encoding: "utf8" });
    const r = cli("--workspace", join(root, "nope"));
    expect([r.status, r.stderr.trim().split("\n").length]).toEqual([1, 1]);
    expect(r.stderr).toMatch(/^openmle: no workspace at .*nope: pass the folder given to openmle evolve --workspace/);
    const ws = await openWorkspace(join(root, "ws"));
    await ws.append("runs", [{ run_id: "r-empty", task_id: "penguins", harness: "openmle", status: "running" }]);
    ws.close();
    await expect(writeReport(join(root, "ws"), join(root, "out"), { run: "r-other", png: false })).rejects.toThrow(/^run "r-other" is not in workspace .*Runs there: r-empty\.$/);
    await expect(writeReport(join(root, "ws"), join(root, "out"), { run: "r-empty", png: false })).rejects.toMatchObject({ userFacing: true, message: expect.stringMatching(/^run "r-empty" in workspace .* has no nodes yet: run openmle evolve/) });
    await expect(writeReport(join(root, "ws"), join(root, "out"), { png: false })).rejects.toThrow(/every run in workspace .* has no nodes yet/);
  }, 90_000);
});
