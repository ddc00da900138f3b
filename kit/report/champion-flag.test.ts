import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, test } from "vitest";
import { openWorkspace } from "../store/index.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH, modebarOverlaps, writeReport } from "./index.js";

/** A finished run of hand-built nodes (RMSE, lower is better) in a real workspace: [id, operator, parents, valid, test]. */
async function handBuiltRun(dir: string, nodes: [string, string, string[], number, number][]): Promise<void> {
  const ws = await openWorkspace(dir);
  try {
    await ws.append("tasks", [{ task_id: "cars", name: "Car fuel economy", modality: "tabular", metric: "rmse", higher_is_better: false }]);
    await ws.append("runs", [{ run_id: "run-flag", task_id: "cars", harness: "openmle", policy: "grammar", seed: 1, status: "finished" }]);
    await ws.append("nodes", nodes.map(([id, operator, parents, valid, test], step) => ({
      run_id: "run-flag", node_id: id, island: 0, step, generation: parents.length ? 1 : 0, operator, parents, status: "success",
      valid_score: valid, test_score: test, fitness: -valid, admitted: true, plan: `plan of ${id}`, code: `print("${id}")`, execution_id: `e-${id}`,
    })));
  } finally {
    ws.close();
  }
}

const noChromium = !existsSync(CHROMIUM_PATH);
if (noChromium) console.warn(`report flag test's Chromium part skipped: ${CHROMIUM_PATH} is not installed`);

describe("the report tells the truth about the result: champion vs the best draft", () => {
  test.each([
    {
      name: "the champion's hidden test is worse than the best draft's: flagged (the README's main job, its scores)",
      nodes: [["n0000", "draft", [], 3.306, 3.43], ["n0001", "draft", [], 3.005, 2.978], ["n0002", "improve", ["n0000"], 3.175, 3.56], ["n0003", "improve", ["n0002"], 2.998, 3.052]],
      gain: "validation +0.007 · hidden test −0.074",
      flag: true,
    },
    {
      name: "both gains positive: no flag, says the improvement holds",
      nodes: [["n0000", "draft", [], 3.306, 3.43], ["n0001", "draft", [], 3.005, 2.978], ["n0002", "improve", ["n0001"], 2.9, 2.95]],
      gain: "validation +0.105 · hidden test +0.028",
      flag: false,
    },
  ] as { name: string; nodes: [string, string, string[], number, number][]; gain: string; flag: boolean }[])("$name", async ({ nodes, gain, flag }) => {
    const root = mkdtempSync(join(tmpdir(), "report-flag-"));
    await handBuiltRun(join(root, "ws"), nodes);
    // No corpus leaderboards (an empty folder), so cars stays ungraded whatever data/corpus-leaderboards holds.
    const noBoards = mkdtempSync(join(tmpdir(), "report-no-lb-"));
    const r = await writeReport(join(root, "ws"), join(root, "out"), { png: false, corpusLeaderboardsDir: noBoards });
    const html = readFileSync(r.html, "utf8");
    const result = html.slice(html.indexOf('<section class="openmle-result"'), html.indexOf("</table>"));
    expect(result).toContain("<th>best draft</th><td>n0001 · validation 3.005 · hidden test 2.978</td>");
    expect(result).toContain(gain);
    expect(r.results[0]!.vsDraft.flag).toBe(flag);
    if (flag) expect(result).toContain("⚠ the improvement holds on validation only: on the hidden test the champion is worse than the best draft");
    else {
      expect(result).not.toContain("openmle-flag");
      expect(result).toContain("the improvement holds on the hidden test");
    }
    // One run, no leaderboard: the grade distribution, valid rate and per-modality charts are left out with a line each.
    for (const id of ["grade-distribution", "valid-rate", "modality"]) {
      expect(html).toMatch(new RegExp(`<p class="openmle-muted openmle-omitted" data-figure="${id}"><b>[^<]+</b> left out: [^<]+\\.</p>`));
      expect(html).not.toContain(`id="${id}"`);
    }
    expect(html).toContain("no task of these runs has a leaderboard (MLE-bench Lite, or a corpus one the kit built), so " +
      "every run is ungraded");
  }, 60_000);

  test.skipIf(noChromium)("in Chromium: the flag shows, the tree is labelled, no mode bar overlaps a title", async () => {
    const root = mkdtempSync(join(tmpdir(), "report-flag-"));
    await handBuiltRun(join(root, "ws"), [["n0000", "draft", [], 3.306, 3.43], ["n0001", "draft", [], 3.005, 2.978], ["n0002", "improve", ["n0000"], 3.175, 3.56], ["n0003", "crossover", ["n0002", "n0001"], 2.998, 3.052]]);
    const r = await writeReport(join(root, "ws"), join(root, "out"), { png: false });
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
    try {
      for (const width of [1280, 800]) {
        const page = await browser.newPage({ viewport: { width, height: 1000 } });
        await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
        await page.goto(`file://${r.html}`);
        await page.waitForFunction(`document.querySelectorAll('.openmle-figure').length === document.querySelectorAll('.openmle-figure[data-drawn="1"]').length`);
        expect(await page.locator(".openmle-flag").isVisible()).toBe(true);
        const labels = (await page.$$eval("#tree-run-flag .textpoint text", (ts) => ts.map((t) => t.textContent ?? ""))).filter(Boolean);
        expect(labels.sort()).toEqual(["C 2.998", "D 3.005", "D 3.306", "I 3.175"]);
        expect(await page.locator(".js-plotly-plot .modebar").count()).toBeGreaterThan(0);
        expect(await modebarOverlaps(page)).toEqual([]);
        if (width === 1280) {
          mkdirSync(join(import.meta.dirname, "..", "..", "reports", "screenshots"), { recursive: true });
          await page.locator("#tree-run-flag").hover();
          await page.screenshot({ path: join(import.meta.dirname, "..", "..", "reports", "screenshots", "report-flag.png"), fullPage: true });
        }
        await page.close();
      }
    } finally {
      await browser.close();
    }
  }, 90_000);
});
