import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM script without types
import { carryOutputs, clearSnapshots, compareNotebooks, figuresIn, insertSnapshots, snapshotImg, maskTableColumns, maskTimeFigures, normaliseText, prepareForCommit } from "./notebook-outputs.mjs";

// Issue 26 item 5: committed notebooks carry their outputs, and the headless run fails when a fresh run's
// outputs differ from them after masking what legitimately varies between runs.
describe("normaliseText", () => {
  const root = "/work/clone";
  it.each([
    ["started 2026-12-02T00:50:04.704Z", "started <time>"],
    ["at 2026-12-01 04:13:09 UTC.", "at <time>."],
    ["workspace /tmp/nb04-bfuFjA/ws, schema v6", "workspace <tmp>, schema v6"],
    ["report in /tmp/openmle-report-x1/index.html)", "report in <tmp>)"],
    ["commit 2e23dbc, node 20", "commit <commit>, node 20"],
    ["kit 2e23dbc0590e7d7470032b3574fb32b2a0b1c2d3 built", "kit <commit> built"],
    ["step 4/4 · best 0.98 · 12.5 nodes/min", "step 4/4 · best 0.98 · <n> nodes/min"],
    ["✓ 00-workspace.ipynb (43.6s), wall 850 ms, 2 min", "✓ 00-workspace.ipynb (<duration>), wall <duration>, <duration>"],
    ['<div id="openmle-fig-12040-3">', '<div id="openmle-fig-<pid>-3">'],
    ["display 3f2b8c1e-8d4a-4b7e-9c1d-0a1b2c3d4e5f", "display <uuid>"],
    ["mean time per step: sync 9.1 s, async 7.0 s (1.31×)", "mean time per step: sync <duration>, async <duration> (<ratio>×)"],
    ["data in /work/clone/data/recorded-runs/cars", "data in <root>/data/recorded-runs/cars"],
    ['"y":[0.8566336687067664,0.9375191852425332]', '"y":[0.8566336687,0.9375191852]'],
    ['"y":[0.8566336687067665,-1.2e-7]', '"y":[0.8566336687,-1.2e-7]'],
    // What must stay: scores, node ids, program hashes, plain dates of a data set, counts.
    ["n0003 valid 0.9845 rmse 2.4135 seed 1", "n0003 valid 0.9845 rmse 2.4135 seed 1"],
    ["sha256 9f86d081884c7d65 on 2012-01-01", "sha256 9f86d081884c7d65 on 2012-01-01"],
    ["40 nodes, 5 steps", "40 nodes, 5 steps"],
  ])("%s", (input, expected) => {
    expect(normaliseText(input, root)).toBe(expected);
  });
});

describe("maskTableColumns and maskTimeFigures", () => {
  const table = (head: string[], row: string[]) =>
    `<table class="openmle-table"><thead><tr>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody><tr>${row.map((c) => `<td>${c}</td>`).join("")}</tr></tbody></table>`;
  it.each([
    [["status", "wall_s", "valid_score"], ["success", "3.65", "0.9333"], ["success", "<masked>", "0.9333"]],
    [["step", "wall s", "cpu_s", "peak_mb"], ["1", "15.9", "1.82", "87"], ["1", "<masked>", "<masked>", "<masked>"]],
    [["node", "started_at", "sandbox_s", "records_per_ktoken"], ["n1", "x", "2.1", "4.5"], ["n1", "<masked>", "<masked>", "4.5"]],
    [["score", "tokens", "seed"], ["0.98", "120", "1"], ["0.98", "120", "1"]],
  ])("%j", (head, row, expected) => {
    expect(maskTableColumns(table(head, row))).toBe(table(head, expected));
  });

  const figure = (layout: object, data: object[]) => `<script>(function(){var f=${JSON.stringify({ data, layout })},el=document.getElementById("x");})();</script>`;
  it("masks the numbers and colours of a figure in seconds, keeping its shape", () => {
    const t = figure({ xaxis: { title: { text: "seconds since start" } } }, [{ x: [0, 3.1], y: ["g1", "g1"], marker: { color: "#1f77b4" } }]);
    expect(maskTimeFigures(t)).toBe(figure({ xaxis: { title: { text: "seconds since start" } } }, [{ x: ["<t>", "<t>"], y: ["g1", "g1"], marker: { color: "<c>" } }]));
  });
  it("in a time figure, hover text and the order of traces (start order) do not count", () => {
    const bar = (g: string, status: string) => ({ x: [1, 2], y: [g, g], hovertext: `${g} ${status}` });
    const a = figure({ xaxis: { title: { text: "seconds since start" } } }, [bar("g1", "consumed"), bar("g2", "dropped")]);
    const b = figure({ xaxis: { title: { text: "seconds since start" } } }, [bar("g2", "consumed"), bar("g1", "consumed")]);
    expect(maskTimeFigures(a)).toBe(maskTimeFigures(b));
    const c = figure({ xaxis: { title: { text: "seconds since start" } } }, [bar("g1", "consumed"), bar("g3", "consumed")]);
    expect(maskTimeFigures(c)).not.toBe(maskTimeFigures(a));
  });
  it("leaves a figure of results alone", () => {
    const t = figure({ yaxis: { title: { text: "best validation RMSE" } } }, [{ x: [0, 1], y: [3.0, 2.4] }]);
    expect(maskTimeFigures(t)).toBe(t);
  });
});

const cell = (source: string, outputs: unknown[], extra: Record<string, unknown> = {}) => ({
  cell_type: "code", execution_count: 1, id: "c1", metadata: {}, outputs, source: [source], ...extra,
});
const stream = (text: string) => ({ name: "stdout", output_type: "stream", text: [text] });
const html = (text: string) => ({ data: { "text/html": [text] }, metadata: {}, output_type: "display_data" });
const notebook = (...cells: unknown[]) => ({ cells, metadata: { language_info: { name: "typescript", version: "3.7.2" } }, nbformat: 4, nbformat_minor: 5 });

describe("compareNotebooks", () => {
  const committed = notebook(cell('console.log("x")', [stream("workspace /tmp/nb04-AAAA/ws: best 0.9845 (3.1s)\n")]));

  it("is silent when only masked values differ (paths, times, execution metadata)", () => {
    const fresh = notebook(
      cell('console.log("x")', [stream("workspace /tmp/nb04-BBBB/ws: best 0.9845 (7.9s)\n")], {
        metadata: { execution: { "iopub.status.busy": "2026-12-02T00:50:04.704000Z" } },
      }),
    );
    fresh.metadata.language_info.version = "5.9.3";
    expect(compareNotebooks(committed, fresh, { name: "04-evolve.ipynb" })).toBeNull();
  });

  it("reports a changed score with a short diff naming the cell", () => {
    const fresh = notebook(cell('console.log("x")', [stream("workspace /tmp/nb04-BBBB/ws: best 0.9712 (7.9s)\n")]));
    const diff = compareNotebooks(committed, fresh, { name: "04-evolve.ipynb" });
    expect(diff).toContain("-workspace <tmp>: best 0.9845 (<duration>)");
    expect(diff).toContain("+workspace <tmp>: best 0.9712 (<duration>)");
    expect(diff).toContain("@@ cell 0 (code, [1]), line");
    expect(diff).toContain("committed/04-evolve.ipynb");
  });

  it("reports a missing output (a committed notebook without outputs is stale)", () => {
    const empty = notebook(cell('console.log("x")', []));
    expect(compareNotebooks(empty, committed, { name: "n" })).toContain("+-- output 0: stream stdout");
  });

  it("cuts long lines and the diff itself", () => {
    const long = (v: number) => notebook(cell("fig", [html(`${"x".repeat(500)}${v}`)]), ...Array.from({ length: 50 }, (_, i) => cell(`c${i}`, [stream(`${i + v}\n`)])));
    const diff = compareNotebooks(long(1), long(2), { name: "n", maxLines: 10 })!;
    expect(diff.split("\n")).toHaveLength(11);
    expect(diff).toContain("… (502 chars)");
    expect(diff).toMatch(/… \d+ more diff lines$/);
  });
});

describe("prepareForCommit and snapshots", () => {
  const bundle = `<script>/* plotly.js */${"p".repeat(120_000)}</script>`;
  const fig = (pid: number, n: number) =>
    `<div id="openmle-fig-${pid}-${n}" class="openmle-figure"><!--openmle-snapshot:openmle-fig-${pid}-${n}--></div>` +
    `<script>(function(){var f={"data":[{"y":[1,2]}],"layout":{"height":300}},el=document.getElementById("openmle-fig-${pid}-${n}");})();</script>`;

  it("drops inlined bundles and execution timestamps, names figures by notebook, keeps small scripts", () => {
    const nb = notebook(cell("plot", [html(bundle + fig(4242, 1))], { metadata: { execution: { t: "2026" }, tags: ["x"] } }));
    const { nb: out, removed } = prepareForCommit(nb, "04-evolve");
    const text = out.cells[0].outputs[0].data["text/html"].join("");
    expect(removed).toBe(bundle.length);
    expect(text).toBe(fig(4242, 1).replaceAll("openmle-fig-4242-", "openmle-fig-04-evolve-"));
    expect(out.cells[0].metadata).toEqual({ tags: ["x"] });
    expect(prepareForCommit(out, "04-evolve").nb).toEqual(out); // idempotent
  });

  it("finds a figure's payload and puts its snapshot in place of the mark; the comparison ignores snapshots", () => {
    const text = fig(7, 2);
    expect(figuresIn(text)).toEqual([{ id: "openmle-fig-7-2", figure: { data: [{ y: [1, 2] }], layout: { height: 300 } } }]);
    const img = snapshotImg({ url: "data:image/png;base64,iVBO$&", width: 900, height: 420, title: 'a "b" <c>' });
    expect(img).toBe('<img src="data:image/png;base64,iVBO$&" width="900" height="420" alt="a &quot;b&quot; &lt;c&gt;">');
    const snap = insertSnapshots(text, { "openmle-fig-7-2": img });
    // The page-side script spells the snapshot div in its text; only a real one (an image with a data URL) is one.
    const pageScript = `<script>var img='<div class="openmle-snapshot"><img src="'+url+'" width="'+w+'">';</script>`;
    expect(compareNotebooks(notebook(cell("plot", [html(pageScript + snap + pageScript)])), notebook(cell("plot", [html(pageScript + text + pageScript)])), { name: "n" })).toBeNull();
    expect(snap).toContain(`<div id="openmle-fig-7-2" class="openmle-figure"><div class="openmle-snapshot">${img}</div></div>`);
    expect(figuresIn(snap)).toEqual([]);
    expect(compareNotebooks(notebook(cell("plot", [html(snap)])), notebook(cell("plot", [html(text)])), { name: "n" })).toBeNull();
  });

  it("clearSnapshots puts the marks back (image or older SVG snapshots), so the snapshots can be redrawn", () => {
    const text = fig(7, 2);
    const png = insertSnapshots(text, { "openmle-fig-7-2": snapshotImg({ url: "data:image/png;base64,AA==", width: 1, height: 1, title: "" }) });
    const svg = insertSnapshots(text, { "openmle-fig-7-2": '<svg class="main-svg"><text>1</text></svg>' });
    expect(clearSnapshots(png)).toBe(text);
    expect(clearSnapshots(svg)).toBe(text);
    expect(clearSnapshots(text)).toBe(text);
    expect(figuresIn(clearSnapshots(png))).toHaveLength(1);
  });
});

describe("carryOutputs (rebuilding from notebooks/src keeps unchanged cells' outputs)", () => {
  it("keeps outputs of unchanged code cells, in order, and drops those of edited ones", () => {
    const previous = notebook(cell("a", [stream("A\n")], { execution_count: 1 }), cell("b", [stream("B\n")], { execution_count: 2 }), cell("a", [stream("A2\n")], { execution_count: 3 }));
    const rebuilt = notebook(cell("a", [], { execution_count: null }), cell("b edited", [], { execution_count: null }), cell("a", [], { execution_count: null }));
    const { nb, kept } = carryOutputs(previous, rebuilt);
    expect(kept).toBe(2);
    expect(nb.cells.map((c: { outputs: { text: string[] }[] }) => c.outputs.map((o) => o.text.join("")))).toEqual([["A\n"], [], ["A2\n"]]);
    expect(nb.cells.map((c: { execution_count: number | null }) => c.execution_count)).toEqual([1, null, 3]);
  });
});
