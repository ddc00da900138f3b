import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../kit/report/index.js";

const root = join(import.meta.dirname, "..");
const specs = spawnSync("jupyter", ["kernelspec", "list", "--json"], { encoding: "utf8" });
const kernel = specs.status === 0
  ? Object.entries((JSON.parse(specs.stdout) as { kernelspecs: Record<string, { spec: { argv: string[] } }> }).kernelspecs)
      .find(([, k]) => k.spec.argv.some((a) => a.includes("tslab")) && !k.spec.argv.includes("--js"))?.[0]
  : undefined;
const hasNotebook = spawnSync("jupyter", ["notebook", "--version"]).status === 0;
const skip = !existsSync(CHROMIUM_PATH) || !kernel || !hasNotebook || !existsSync(join(root, "dist", "kit", "index.js"));
if (skip) console.warn("notebook-server test skipped: needs chromium, jupyter-notebook, the tslab kernel (bash scripts/setup.sh) and the built kit (npm run build)");

const committed = readdirSync(join(root, "notebooks")).filter((f) => f.endsWith(".ipynb")).sort();
const code = (id: string, ...lines: string[]) => ({ cell_type: "code", id, metadata: {}, execution_count: null, outputs: [], source: lines.map((l, i) => (i < lines.length - 1 ? `${l}\n` : l)) });

describe.skipIf(skip)("npm run notebook: Jupyter in the browser with the TypeScript kernel", () => {
  let dir: string;
  let server: ChildProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nbserver-"));
    // tslab resolves packages the old Node way from the notebook's folder: `openmle` is this clone's kit
    // (linked here, so the test does not depend on node_modules/openmle, which npm install prunes).
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(root, join(dir, "node_modules", "openmle"));
    symlinkSync(join(root, "node_modules", "tslab"), join(dir, "node_modules", "tslab"));
    writeFileSync(join(dir, "probe.ipynb"), JSON.stringify({
      nbformat: 4, nbformat_minor: 5,
      metadata: { kernelspec: { name: kernel, display_name: "TypeScript", language: "typescript" } },
      cells: [
        code("answer", "const answer: number = 20 + 22;", "`answer is ${answer}`"),
        code("workspace",
          'import { openWorkspace } from "openmle";',
          `const ws = await openWorkspace(${JSON.stringify(join(dir, "ws"))});`,
          'await ws.append("runs", [{ run_id: `r${Date.now()}` }]);',
          '`runs: ${(await ws.query("SELECT count(*) AS n FROM runs"))[0]!.n}`'),
        code("figure",
          'import * as tslab from "tslab";',
          'import { report } from "openmle";',
          'tslab.display.html(report.notebookFigure({ data: [{ type: "bar", x: ["a", "b"], y: [1, 2] }] }));'),
      ],
    }));
    // The committed notebooks as a fresh clone has them: never opened here, so Jupyter does not trust them.
    mkdirSync(join(dir, "committed"));
    for (const f of committed) copyFileSync(join(root, "notebooks", f), join(dir, "committed", f));
    server = spawn(process.execPath, [join(root, "scripts", "notebook-server.mjs"), "--port", "0", "--dir", dir], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    server.stdout!.on("data", (b) => (out += String(b)));
    for (const t0 = Date.now(); !/at http:\/\/127\.0\.0\.1:\d+\/tree\?token=\w+/.test(out); await new Promise((r) => setTimeout(r, 200))) {
      if (Date.now() - t0 > 60_000 || server.exitCode !== null) throw new Error(`npm run notebook printed no URL: ${out}`);
    }
    const url = new URL(out.match(/http:\/\/\S+/)![0]);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(`${url.origin}/notebooks/probe.ipynb?token=${url.searchParams.get("token")}`);
    await kernelReady();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill("SIGTERM");
  });

  const kernelReady = () =>
    page.waitForFunction("window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()", undefined, { timeout: 60_000 });
  const cell = (i: number) => page.locator(".cell").nth(i);
  /** Run cell i in place (Ctrl+Enter, as a person re-running it) and wait until the kernel has finished it. */
  async function run(i: number): Promise<string> {
    const count = (await page.evaluate(`Jupyter.notebook.get_cell(${i}).input_prompt_number ?? 0`)) as number | string;
    await cell(i).locator(".CodeMirror").click();
    await page.keyboard.press("Control+Enter");
    await expect.poll(() => page.evaluate(`Jupyter.notebook.get_cell(${i}).input_prompt_number`), { timeout: 60_000 })
      .toSatisfy((n) => typeof n === "number" && n !== count);
    return cell(i).locator(".output_area").first().innerText().catch(() => "");
  }

  test("starts on 127.0.0.1, prints the URL; a notebook opened in Chromium runs a cell and shows its output", async () => {
    expect(await run(0)).toContain("answer is 42");
    expect(await page.evaluate("Jupyter.notebook.kernel.name")).toBe(kernel);
  }, 90_000);

  test("re-running a cell that opens a workspace works without a kernel restart", async () => {
    expect(await run(1)).toContain("runs: 1");
    const again = await run(1);
    expect(again).not.toMatch(/Error/);
    expect(again).toContain("runs: 2");
  }, 90_000);

  test("a figure cell, run twice, still draws after the notebook is saved and the page reloaded", async () => {
    const drawn = () => cell(2).locator('.openmle-figure[data-drawn="1"]').count();
    const savedOutput = () => page.evaluate("JSON.stringify(Jupyter.notebook.get_cell(2).output_area.outputs)") as Promise<string>;
    await run(2); // the kernel's first figure: its output carries plotly.js, dropped once the figure is drawn
    await expect.poll(drawn, { timeout: 30_000 }).toBe(1);
    await expect.poll(savedOutput, { timeout: 30_000 }).toContain('class=\\"openmle-snapshot\\"><img src=\\"data:image/png;base64,');
    expect(await savedOutput()).not.toContain("plotly.js v");
    await run(2); // the re-run's output, without plotly.js, is all that is left of the cell
    await expect.poll(drawn, { timeout: 30_000 }).toBe(1);
    expect(await savedOutput()).not.toContain("plotly.js v");
    // The drawn figure is kept in the output as a static PNG, which the save writes to the file.
    await expect.poll(savedOutput, { timeout: 30_000 }).toContain('class=\\"openmle-snapshot\\"><img src=\\"data:image/png;base64,');
    await page.evaluate("Jupyter.notebook.save_notebook()");
    await expect.poll(() => page.evaluate("Jupyter.notebook.dirty"), { timeout: 15_000 }).toBe(false);
    await page.reload();
    await kernelReady();
    expect(await page.evaluate("Jupyter.notebook.trusted")).toBe(true);
    expect(await page.evaluate("typeof window.Plotly")).toBe("undefined");
    const snapshot = cell(2).locator(".openmle-figure .openmle-snapshot img").first();
    await expect.poll(() => snapshot.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth), { timeout: 30_000 }).toBeGreaterThan(300);
    mkdirSync(join(root, "reports", "screenshots"), { recursive: true });
    await page.screenshot({ path: join(root, "reports", "screenshots", "notebook-after-reload.png") });
  }, 120_000);

  test("every figure of every committed notebook, opened untrusted in a fresh Jupyter, shows as an image", async () => {
    const token = new URL(page.url()).searchParams.get("token");
    const origin = new URL(page.url()).origin;
    for (const f of committed) {
      const figures = (readFileSync(join(root, "notebooks", f), "utf8").match(/class=\\"openmle-figure\\"/g) ?? []).length;
      await page.goto(`${origin}/notebooks/committed/${f}?token=${token}`);
      await page.waitForFunction("window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded", undefined, { timeout: 60_000 });
      expect(await page.evaluate("Jupyter.notebook.trusted"), f).toBe(false);
      // Sanitised (untrusted) HTML keeps no script and no SVG: what shows of a figure is its snapshot image, at
      // its drawn size, and no text (an SVG's labels would run together as text).
      type Shown = { width: number; height: number; onScreen: number; textBeside: number; svgs: number };
      const shown = (await page.evaluate(`[...document.querySelectorAll(".output_html")].flatMap((out) =>
        [...out.querySelectorAll("img")].filter((i) => i.src.startsWith("data:image/png")).map((i) => ({
          width: i.naturalWidth,
          height: i.naturalHeight,
          onScreen: Math.round(i.getBoundingClientRect().width),
          textBeside: out.innerText.trim().length,
          svgs: out.querySelectorAll("svg").length,
        })))`)) as Shown[];
      expect(shown.length, f).toBe(figures);
      for (const img of shown) {
        expect(img.width, f).toBeGreaterThan(300);
        expect(img.height, f).toBeGreaterThan(200);
        expect(img.onScreen, f).toBeGreaterThan(300);
        expect(img.svgs, f).toBe(0);
      }
      // Outputs that are only a figure show no text at all.
      expect(shown.filter((i) => i.textBeside === 0).length, f).toBeGreaterThanOrEqual(figures - 1);
      // One kernel at a time: the page starts one for each notebook; shut it down before the next.
      await page.waitForFunction("!!(Jupyter.notebook.session && Jupyter.notebook.session.kernel)", undefined, { timeout: 60_000 });
      await page.evaluate("Jupyter.notebook.session.delete()");
    }
  }, 240_000);
});
