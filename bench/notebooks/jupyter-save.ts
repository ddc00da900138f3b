// A person's path through Jupyter: open a committed notebook (untrusted, as a fresh clone has it), run every cell,
// save, and compare the file's size before and after (issue 61: one run of a cell used to inline plotly.js, 299 KB →
// 5.3 MB). Also counts the figures shown as images before the run.
// Usage: npx tsx bench/notebooks/jupyter-save.ts [notebook ...]   (default: 00-workspace 04-evolve)
import { spawn } from "node:child_process";
import { copyFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../kit/report/index.js";

const root = join(import.meta.dirname, "..", "..");
const names = process.argv.slice(2).length ? process.argv.slice(2) : ["00-workspace", "04-evolve"];
// The copies sit beside the committed notebooks, as `npm run notebook` serves them (tslab resolves the kit and its
// types from there), under a name of their own, removed at the end.
const dir = join(root, "notebooks");
const copy = (n: string) => `bench-copy-${n}`;
for (const n of names) copyFileSync(join(dir, `${n}.ipynb`), join(dir, `${copy(n)}.ipynb`));

const server = spawn(process.execPath, [join(root, "scripts", "notebook-server.mjs"), "--port", "0", "--dir", dir], {
  stdio: ["ignore", "pipe", "inherit"],
});
let out = "";
server.stdout!.on("data", (b) => (out += String(b)));
while (!/token=\w+/.test(out)) await new Promise((r) => setTimeout(r, 200));
const url = new URL(out.match(/http:\/\/\S+/)![0]);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
const rows: string[] = [];
try {
  for (const n of names) {
    const file = join(dir, `${copy(n)}.ipynb`);
    const before = statSync(file).size;
    await page.goto(`${url.origin}/notebooks/${copy(n)}.ipynb?token=${url.searchParams.get("token")}`);
    await page.waitForFunction("window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()", undefined, { timeout: 120_000 });
    const images = (await page.evaluate(`document.querySelectorAll('.output_html img[src^="data:image/png"]').length`)) as number;
    const t0 = Date.now();
    await page.evaluate("Jupyter.notebook.execute_all_cells()");
    // Done when no cell is waiting ("In [*]") and the kernel is idle.
    await page.waitForFunction(
      "Jupyter.notebook.get_cells().every((c) => c.cell_type !== 'code' || c.input_prompt_number !== '*') && Jupyter.notebook.kernel_busy === false",
      undefined, { timeout: 900_000, polling: 1000 },
    );
    await new Promise((r) => setTimeout(r, 3000)); // figures draw and write their snapshots
    await page.evaluate("Jupyter.notebook.save_notebook()");
    await page.waitForFunction("Jupyter.notebook.dirty === false", undefined, { timeout: 60_000 });
    const after = statSync(file).size;
    const errors = (await page.evaluate(
      `document.querySelectorAll('.output_error, .output_stderr').length + ` +
        `Jupyter.notebook.get_cells().filter((c) => c.cell_type === 'code' && c.input_prompt_number == null).length`,
    )) as number;
    rows.push(`| ${n} | ${images} | ${(before / 1024).toFixed(0)} KiB | ${(after / 1024).toFixed(0)} KiB | ${((Date.now() - t0) / 1000).toFixed(0)} s | ${errors} |`);
    console.error(`${n}: ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB`);
  }
} finally {
  await browser.close();
  server.kill("SIGTERM");
  if (!process.env.KEEP) for (const n of names) rmSync(join(dir, `${copy(n)}.ipynb`), { force: true });
}
console.log("| notebook | figures shown as images, untrusted | committed size | after Run All + save | run time | error outputs or cells not run |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
