#!/usr/bin/env node
// Static PNG snapshots of a notebook's plotly figures, drawn in headless Chromium (playwright-core), so a
// committed notebook shows its figures where no script runs: a code host, a fresh (untrusted) Jupyter page,
// whose sanitiser drops scripts and SVG but keeps an <img> with a data URL, the HTML gallery before plotly
// loads. The same snapshot the page-side script writes in Jupyter Notebook (kit/report/plotly.ts), made here
// because nbconvert runs no page.
// As a command, redraws the snapshots of the committed notebooks in place (nothing is executed):
//   node scripts/notebook-snapshots.mjs [name-substring ...]
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { clearSnapshots, figuresIn, insertSnapshots, snapshotImg, splitLines } from "./notebook-outputs.mjs";

const CHROMIUM = process.env.OPENMLE_CHROMIUM || "/usr/bin/chromium";
/** The width a notebook's output area gives a figure (Jupyter Notebook's default cell width). */
export const SNAPSHOT_WIDTH = 900;

// Plotly names clip paths and gradients with Math.random (Lib.randstr); a seeded generator reset before
// each figure makes a figure's image the same on every run, whatever was drawn before it.
const SEEDED_RANDOM = `window.__seedRandom=function(){var a=20261202;Math.random=function(){a|=0;a=a+0x6D2B79F5|0;
var t=Math.imul(a^a>>>15,1|a);t=t+Math.imul(t^t>>>7,61|t)^t;return((t^t>>>14)>>>0)/4294967296;};};`;

const htmlOf = (o) => (Array.isArray(o.data["text/html"]) ? o.data["text/html"].join("") : o.data["text/html"]);

/**
 * A headless Chromium with plotly.js loaded, launched on first use and shared by every notebook of a run:
 * `add(nb)` snapshots every figure of every HTML output of `nb` that has none yet (in place) and returns how
 * many it drew; `redraw(nb)` replaces the snapshots it already has.
 */
export function snapshotter() {
  let opened = null;
  const open = async () => {
    const dir = mkdtempSync(join(tmpdir(), "openmle-snapshots-"));
    const page = join(dir, "page.html");
    const plotly = createRequire(import.meta.url).resolve("plotly.js-dist-min");
    writeFileSync(page, `<!doctype html><html><head><script src="${pathToFileURL(plotly).href}"></script></head><body></body></html>`);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
    const ctx = await browser.newContext({ viewport: { width: SNAPSHOT_WIDTH + 100, height: 900 } });
    await ctx.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
    const tab = await ctx.newPage();
    await tab.addInitScript(SEEDED_RANDOM);
    await tab.goto(pathToFileURL(page).href, { waitUntil: "load" });
    return { browser, tab, dir };
  };
  const add = async (nb) => {
    const jobs = [];
    for (const c of nb.cells) {
      for (const o of c.outputs ?? []) {
        if (!o.data?.["text/html"]) continue;
        const figs = figuresIn(htmlOf(o));
        if (figs.length) jobs.push({ o, figs });
      }
    }
    if (!jobs.length) return 0;
    opened ??= await open();
    let drawn = 0;
    for (const { o, figs } of jobs) {
      const snaps = {};
      for (const { id, figure } of figs) {
        snaps[id] = snapshotImg(await opened.tab.evaluate(drawPng, { figure, width: SNAPSHOT_WIDTH }));
        drawn++;
      }
      o.data["text/html"] = splitLines(insertSnapshots(htmlOf(o), snaps));
    }
    return drawn;
  };
  return {
    add,
    async redraw(nb) {
      for (const c of nb.cells) for (const o of c.outputs ?? []) if (o.data?.["text/html"]) o.data["text/html"] = splitLines(clearSnapshots(htmlOf(o)));
      return add(nb);
    },
    async close() {
      if (!opened) return;
      await opened.browser.close();
      rmSync(opened.dir, { recursive: true, force: true });
      opened = null;
    },
  };
}

/** Page-side: draw one figure at `width` px (its own height); plotly's PNG export of it, its size and title. */
async function drawPng({ figure, width }) {
  window.__seedRandom();
  document.body.innerHTML = "";
  const el = document.createElement("div");
  el.style.width = `${width}px`;
  document.body.appendChild(el);
  const layout = { ...figure.layout, width: figure.layout?.width ?? width };
  const g = await window.Plotly.newPlot(el, figure.data, layout, { ...figure.config, responsive: false });
  const size = { width: g._fullLayout.width, height: g._fullLayout.height };
  const url = await window.Plotly.toImage(g, { format: "png", ...size });
  const title = g._fullLayout.title?.text ?? "";
  window.Plotly.purge(g);
  return { url, ...size, title };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const nbDir = join(fileURLToPath(new URL("..", import.meta.url)), "notebooks");
  const filters = process.argv.slice(2);
  const snapshots = snapshotter();
  for (const f of readdirSync(nbDir).filter((n) => n.endsWith(".ipynb") && (!filters.length || filters.some((s) => n.includes(s)))).sort()) {
    const file = join(nbDir, f);
    const nb = JSON.parse(readFileSync(file, "utf8"));
    const drawn = await snapshots.redraw(nb);
    writeFileSync(file, `${JSON.stringify(nb, null, 1)}\n`);
    console.log(`✓ notebooks/${f}: ${drawn} figure snapshots (${(statSync(file).size / 1024).toFixed(0)} KiB)`);
  }
  await snapshots.close();
}
