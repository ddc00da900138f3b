import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Page } from "playwright-core";

/** Debian's chromium, unless OPENMLE_CHROMIUM names another executable (e.g. a devcontainer's). */
export const CHROMIUM_PATH = process.env.OPENMLE_CHROMIUM || "/usr/bin/chromium";
/** Flags for an offline, headless, throw-away Chromium. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;

export interface DrawnFigure {
  readonly id: string;
  readonly title: string;
  /** Plotly finished drawing (the figure's div has data-drawn="1"). */
  readonly drawn: boolean;
  /** The figure holds an svg.main-svg. */
  readonly hasSvg: boolean;
  /** PNG path (2× device pixels) when `pngDir` was given. */
  readonly png?: string;
  /** SVG path (plotly's vector export) when `svgDir` was given. */
  readonly svg?: string;
}

export interface OpenOptions {
  /** Write one PNG per figure here, at 2× device pixels. */
  readonly pngDir?: string;
  /** Write one SVG per figure here (Plotly.toImage, format svg). */
  readonly svgDir?: string;
  readonly executablePath?: string;
  /** Milliseconds to wait for every figure to draw (default 60 s). */
  readonly timeoutMs?: number;
}

/**
 * Load an HTML file in a throw-away headless Chromium (file:// URL, a fresh profile, every non-file request
 * aborted), wait until each `.openmle-figure` has drawn (or `timeoutMs` passed), run `fn` on the page, close.
 */
async function onPage<T>(
  htmlPath: string,
  opts: { readonly executablePath?: string; readonly timeoutMs?: number; readonly height?: number },
  fn: (page: Page) => Promise<T>,
): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), "openmle-chromium-"));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: opts.executablePath ?? CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1100, height: opts.height ?? 800 },
    deviceScaleFactor: 2,
  });
  try {
    await ctx.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    await page.goto(pathToFileURL(resolve(htmlPath)).href, { waitUntil: "load" });
    const total = await page.locator(".openmle-figure").count();
    if (total)
      await page
        .waitForFunction(`document.querySelectorAll('.openmle-figure[data-drawn="1"]').length >= ${total}`, undefined, {
          timeout: opts.timeoutMs ?? 60_000,
        })
        .catch(() => undefined); // the caller reports what did not draw
    return await fn(page);
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Open an HTML report in headless Chromium (`onPage`), wait until each `.openmle-figure` has drawn, and
 * optionally screenshot each one to PNG (2×) and export each one as SVG.
 */
export async function openInChromium(htmlPath: string, opts: OpenOptions = {}): Promise<DrawnFigure[]> {
  return onPage(htmlPath, opts, async (page) => {
    const figs = await page.$$eval(".openmle-figure", (els) =>
      els.map((el) => ({
        id: el.id,
        title: el.getAttribute("data-title") ?? el.id,
        drawn: el.getAttribute("data-drawn") === "1",
        hasSvg: el.querySelector("svg.main-svg") !== null,
      })),
    );
    if (!opts.pngDir && !opts.svgDir) return figs;
    const out: DrawnFigure[] = [];
    for (const f of figs) {
      if (!f.drawn) {
        out.push(f);
        continue;
      }
      let png: string | undefined;
      let svg: string | undefined;
      if (opts.pngDir) {
        mkdirSync(opts.pngDir, { recursive: true });
        png = join(opts.pngDir, `${f.id}.png`);
        await page.locator(`#${f.id}`).screenshot({ path: png });
      }
      if (opts.svgDir) {
        mkdirSync(opts.svgDir, { recursive: true });
        const url = (await page.evaluate(
          `Plotly.toImage(document.getElementById(${JSON.stringify(f.id)}), { format: "svg" })`,
        )) as string;
        svg = join(opts.svgDir, `${f.id}.svg`);
        writeFileSync(svg, decodeURIComponent(url.slice(url.indexOf(",") + 1)));
      }
      out.push({ ...f, ...(png ? { png } : {}), ...(svg ? { svg } : {}) });
    }
    return out;
  });
}

export interface ModebarOverlap {
  /** The figure's element id (or its index on the page when it has none). */
  readonly figure: string;
  readonly modebar: { x: number; y: number; width: number; height: number };
  readonly title: { x: number; y: number; width: number; height: number };
}

/**
 * Every drawn plotly figure on the page whose mode bar (`.modebar`, present though hidden until hover) overlaps
 * its title (`.gtitle`), as bounding boxes in page pixels; empty when no toolbar can cover a title.
 */
export async function modebarOverlaps(page: Page): Promise<ModebarOverlap[]> {
  return page.$$eval(".js-plotly-plot", (plots) =>
    plots.flatMap((p, i) => {
      const bar = p.querySelector(".modebar");
      const title = p.querySelector(".gtitle");
      if (!bar || !title) return [];
      const box = (e: { getBoundingClientRect(): { x: number; y: number; width: number; height: number } }) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      };
      const [a, b] = [box(bar), box(title)];
      const hit = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      return hit && a.width > 0 && b.width > 0 ? [{ figure: p.id || `#${i}`, modebar: a, title: b }] : [];
    }),
  );
}

/**
 * Screenshot a whole HTML page (a rendered table, a report) to PNG at 2× device pixels in the same offline,
 * throw-away Chromium (`onPage`; figures on it are waited for first). Returns the PNG's path.
 */
export async function pagePng(
  htmlPath: string,
  pngPath: string,
  opts: { readonly executablePath?: string } = {},
): Promise<string> {
  return onPage(htmlPath, { ...opts, height: 600 }, async (page) => {
    mkdirSync(dirname(resolve(pngPath)), { recursive: true });
    await page.screenshot({ path: pngPath, fullPage: true });
    return pngPath;
  });
}
