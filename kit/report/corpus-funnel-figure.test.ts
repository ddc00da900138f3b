import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { funnelTable } from "../gym/corpus/funnel.js";
import { PAPER_FUNNEL } from "../gym/corpus/paper-funnel.js";
import { stage } from "../gym/test-helpers/corpus-fixtures.js";
import { CHROMIUM_PATH, openInChromium } from "./chromium.js";
import { corpusFunnelFigure, wrapLabel } from "./corpus-funnel-figure.js";
import { figureHtml } from "./plotly.js";

// Two candidates: b fails its export; a frames one task that goes through.
const table = funnelTable(
  [
    stage("b", "a", "export", "pass"), stage("b", "b", "export", "fail", "missing"), stage("b", "a", "frame", "pass"),
    ...(["build", "quality", "headroom"] as const).map((s) => stage("b", "a", s, "pass", "", "a1")),
    stage("b", "a", "gate", "skip", "no endpoint", "a1"),
  ],
  [],
);

describe("corpusFunnelFigure", () => {
  const fig = corpusFunnelFigure(table, PAPER_FUNNEL);
  it("the kit's shares of candidates per stage, left; the paper's shares of competitions, right", () => {
    const [kit, paper] = fig.data;
    expect(kit).toMatchObject({
      x: ["export", "frame", "build", "quality", "headroom", "gate"],
      y: [0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
      text: ["50%", "50%", "50%", "50%", "50%", "50%"],
      name: "this kit's corpus (2 candidates)",
    });
    expect(kit!.customdata).toEqual([[1, "candidates", 2, 1], [1, "candidates", 1, 1], ...Array(4).fill([1, "tasks", 1, 1])]);
    expect(paper).toMatchObject({ xaxis: "x2", yaxis: "y2", y: [1, 0.36, 0.26, 0.2] });
    expect(paper!.text).toEqual(["100% (11,000)", "36% (3,972)", "26% (2,839)", "20% (2,240)"]);
  });
  it.each([
    ["semantic quality gate", "semantic quality<br>gate"],
    ["competitions (sources)", "competitions<br>(sources)"],
    ["short", "short"],
  ])("wrapLabel(%j)", (label, want) => expect(wrapLabel(label)).toBe(want));
  it("an empty funnel draws gaps, not NaN", () => {
    const empty = corpusFunnelFigure(funnelTable([], []), PAPER_FUNNEL);
    expect(empty.data[0]!.y).toEqual([null, null, null, null, null, null]);
    expect(JSON.stringify(empty)).not.toMatch(/NaN/);
  });
});

describe.skipIf(!existsSync(CHROMIUM_PATH))("corpusFunnelFigure in Chromium", () => {
  it("draws both panels with their bar labels", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-funnel-fig-"));
    const html = join(dir, "funnel.html");
    writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8"></head><body>${figureHtml(corpusFunnelFigure(table, PAPER_FUNNEL), { includePlotly: true, height: 520 })}</body></html>`);
    const [drawn] = await openInChromium(html, { pngDir: dir });
    expect(drawn).toMatchObject({ drawn: true, hasSvg: true });
    expect(existsSync(drawn!.png!)).toBe(true);
  }, 120_000);
});
