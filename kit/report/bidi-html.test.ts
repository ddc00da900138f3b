import { describe, expect, it } from "vitest";
import { dashboardHtml, figureHtml, treeViewHtml, type RunView } from "./index.js";
import { escapeHtml } from "./format.js";

// Issue 59.7: a bidi control reorders a page's text as it does a terminal's, and HTML escaping leaves it, so
// names in the report, the tree view and the dashboard carry it as a visible escape (\u202e).
const BIDI = /[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const NAME = "run-\u202Egpj.exe";

describe("report HTML shows bidi controls, never obeys them", () => {
  it("escapeHtml, a figure's labels and title, the dashboard page", () => {
    expect(escapeHtml(`<b>${NAME}</b>`)).toBe("&lt;b&gt;run-\\u202egpj.exe&lt;/b&gt;");
    const fig = figureHtml({ data: [{ x: [1], y: [2], text: [NAME] }], layout: { title: { text: NAME } } }, { title: NAME });
    expect(fig).not.toMatch(BIDI);
    expect(fig).toContain('data-title="run-\\u202egpj.exe"');
    expect(fig).toContain('"text":["run-\\\\u202egpj.exe"]');
    expect(dashboardHtml(`/ws/${NAME}`)).not.toMatch(BIDI);
  });

  it("the tree view: node list, panel data and the figure name the same escaped ids (a click still finds its node)", () => {
    const node = (id: string, parents: string[]) => ({
      nodeId: id, step: 0, generation: 0, operator: `draft${NAME}`, parents, status: "success", validScore: 0.5,
      plan: NAME, code: `print("${NAME}")`, stdoutTail: "", stderrTail: "", traceback: null, card: {}, record: {},
    });
    const view = { runId: NAME, harness: "evo", higherIsBetter: true, nodes: [node(`n0${NAME}`, []), node("n1", [`n0${NAME}`])] };
    const html = treeViewHtml(view as unknown as RunView, { id: "t" });
    expect(html).not.toMatch(BIDI);
    expect(html).toContain('<option value="n0run-\\u202egpj.exe">');
    expect(html).toContain('"id":"n0run-\\\\u202egpj.exe"');
  });
});
