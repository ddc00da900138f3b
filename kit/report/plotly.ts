import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** A plotly figure: what `Plotly.newPlot` takes. */
export interface Figure {
  data: readonly Record<string, unknown>[];
  layout?: Record<string, unknown>;
  config?: Record<string, unknown>;
}

let plotlySource: string | undefined;
/** The plotly.js bundle shipped in npm (plotly.js-dist-min), read once, for offline HTML. */
export function plotlyBundle(): string {
  plotlySource ??= readFileSync(createRequire(import.meta.url).resolve("plotly.js-dist-min"), "utf8");
  return plotlySource;
}

let counter = 0;
/**
 * HTML for one figure. With `includePlotly` the bundle is inlined (self-contained, works
 * offline); otherwise the page must already have loaded it (see `plotlyScriptTag`).
 */
export function figureHtml(fig: Figure, opts: { includePlotly?: boolean; id?: string; height?: number; title?: string } = {}): string {
  const id = opts.id ?? `openmle-fig-${process.pid}-${++counter}`;
  const layout = { height: opts.height ?? 420, margin: { t: 48, r: 24, b: 48, l: 56 }, ...fig.layout };
  const payload = JSON.stringify({ data: fig.data, layout, config: { responsive: true, displaylogo: false, ...fig.config } })
    .replaceAll("</", "<\\/");
  return (
    (opts.includePlotly ? plotlyScriptTag() : "") +
    `<div id="${id}" class="openmle-figure"${opts.title ? ` data-title="${opts.title.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;")}"` : ""}></div>` +
    `<script>(function(){var f=${payload};Plotly.newPlot(${JSON.stringify(id)},f.data,f.layout,f.config)` +
    `.then(function(g){g.setAttribute("data-drawn","1");});})();</script>`
  );
}

export function plotlyScriptTag(): string {
  return `<script>${plotlyBundle().replaceAll("</script", "<\\/script")}</script>`;
}

let notebookLoaded = false;
/**
 * HTML to display a figure in a notebook (tslab: `tslab.display.html(notebookFigure(fig))`).
 * The first figure of a kernel session carries the plotly bundle; later ones reuse it.
 */
export function notebookFigure(fig: Figure, opts: { height?: number } = {}): string {
  const html = figureHtml(fig, { includePlotly: !notebookLoaded, height: opts.height });
  notebookLoaded = true;
  return html;
}
