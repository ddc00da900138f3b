// Static SVG snapshots of a notebook's plotly figures, drawn in headless Chromium (playwright-core), so a
// committed notebook shows its figures where no script runs (a code host, a fresh Jupyter page, the HTML
// gallery before plotly loads). The same snapshot the page-side script writes in Jupyter Notebook
// (kit/report/plotly.ts), made here because nbconvert runs no page.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { figuresIn, insertSnapshots, splitLines } from "./notebook-outputs.mjs";

const CHROMIUM = process.env.OPENMLE_CHROMIUM || "/usr/bin/chromium";
/** The width a notebook's output area gives a figure (Jupyter Notebook's default cell width). */
export const SNAPSHOT_WIDTH = 900;

// Plotly names clip paths and gradients with Math.random (Lib.randstr); a seeded generator reset before
// each figure makes a figure's SVG the same on every run, whatever was drawn before it.
const SEEDED_RANDOM = `window.__seedRandom=function(){var a=20261202;Math.random=function(){a|=0;a=a+0x6D2B79F5|0;
var t=Math.imul(a^a>>>15,1|a);t=t+Math.imul(t^t>>>7,61|t)^t;return((t^t>>>14)>>>0)/4294967296;};};`;

/**
 * A headless Chromium with plotly.js loaded, launched on first use and shared by every notebook of a run:
 * `add(nb)` snapshots every figure of every HTML output of `nb` (in place) and returns how many it drew.
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
  return {
    async add(nb) {
      const jobs = [];
      for (const c of nb.cells) {
        for (const o of c.outputs ?? []) {
          const html = o.data?.["text/html"];
          if (!html) continue;
          const figs = figuresIn(Array.isArray(html) ? html.join("") : html);
          if (figs.length) jobs.push({ o, figs });
        }
      }
      if (!jobs.length) return 0;
      opened ??= await open();
      let drawn = 0;
      for (const { o, figs } of jobs) {
        const svgs = {};
        for (const { id, figure } of figs) {
          svgs[id] = await opened.tab.evaluate(drawSvg, { figure, width: SNAPSHOT_WIDTH });
          drawn++;
        }
        const html = Array.isArray(o.data["text/html"]) ? o.data["text/html"].join("") : o.data["text/html"];
        o.data["text/html"] = splitLines(insertSnapshots(html, svgs));
      }
      return drawn;
    },
    async close() {
      if (!opened) return;
      await opened.browser.close();
      rmSync(opened.dir, { recursive: true, force: true });
      opened = null;
    },
  };
}

/** Page-side: draw one figure at `width` px (its own height) and return plotly's SVG export of it. */
async function drawSvg({ figure, width }) {
  window.__seedRandom();
  document.body.innerHTML = "";
  const el = document.createElement("div");
  el.style.width = `${width}px`;
  document.body.appendChild(el);
  const layout = { ...figure.layout, width: figure.layout?.width ?? width };
  const g = await window.Plotly.newPlot(el, figure.data, layout, { ...figure.config, responsive: false });
  const url = await window.Plotly.toImage(g, { format: "svg", width: g._fullLayout.width, height: g._fullLayout.height });
  window.Plotly.purge(g);
  return decodeURIComponent(url.slice(url.indexOf(",") + 1));
}
