import { describe, expect, it } from "vitest";
import { figureHtml } from "./plotly.js";

// Issue 25, break 7 (the HTML side): control characters are harmless in HTML, tags are not. A label holding
// "</script>" or "<!--<script>" (an HTML comment and a script start, which keep the parser from ending
// the tag) reaches the page only as \u003c inside the script's JSON.
describe("figure payloads in a page", () => {
  it("carry no '<' of their data, and read back the same", () => {
    const label = "x</script><!--<script>alert(1)</script>\x1b[31m";
    const html = figureHtml({ data: [{ type: "scatter", text: [label] }] }, { id: "f1" });
    expect(html.match(/<\/script>/g)).toHaveLength(1); // the figure's own end tag only
    expect(html).not.toContain("<!--<script");
    const payload = html.slice(html.indexOf("var f=") + "var f=".length, html.indexOf(",el=document"));
    expect(payload).not.toContain("<");
    expect(JSON.parse(payload).data[0].text[0]).toBe(label);
  });
});
