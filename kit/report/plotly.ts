import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { escapeHtml, showBidiInJson } from "./format.js";

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

/** Top margin (px) that holds plotly's mode bar (~26 px, top right) above a title hung below it. */
/** One colour per series (arm, harness, run), in order; index it modulo its length. */
export const PALETTE = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#b279a2", "#72b7b2"] as const;

export const MODEBAR_CLEAR_TOP = 76;

/**
 * The layout with its title hung below the strip where plotly's mode bar appears (title y pinned to the top of
 * the container, padded 32 px down, top margin at least MODEBAR_CLEAR_TOP): a toolbar shown on hover then never
 * covers the title, however long the title and however narrow the figure. Layouts without a title are unchanged.
 */
export function clearOfModebar(layout: Record<string, unknown>): Record<string, unknown> {
  const t = layout.title;
  if (!t) return layout;
  const title = typeof t === "string" ? { text: t } : (t as Record<string, unknown>);
  const margin = { t: 48, r: 24, b: 48, l: 56, ...(layout.margin as Record<string, number> | undefined) };
  return {
    ...layout,
    title: { ...title, y: 1, yref: "container", yanchor: "top", pad: { t: 32 } },
    margin: { ...margin, t: Math.max(margin.t, MODEBAR_CLEAR_TOP) },
  };
}

let counter = 0;
/**
 * HTML for one figure. With `includePlotly` the bundle is inlined (self-contained, works
 * offline); otherwise the page must already have loaded it (see `plotlyScriptTag`).
 *
 * In Jupyter Notebook (a page with `Jupyter.notebook`), once the figure has drawn, its cell's output is
 * rewritten to hold a static PNG of it (`Plotly.toImage`, an `<img>` inside the figure's div) and to drop
 * the inlined plotly.js bundle, so the saved notebook stays small and shows the figure after a page reload,
 * trusted or not (an untrusted notebook's HTML is sanitised: scripts and SVG go, an `<img>` stays); where
 * plotly.js is loaded, the figure is drawn interactive again over the snapshot. Elsewhere (reports, the
 * dashboard, nbconvert) nothing changes.
 */
export function figureHtml(
  fig: Figure,
  opts: { includePlotly?: boolean; id?: string; height?: number; title?: string } = {},
): string {
  const id = opts.id ?? `openmle-fig-${process.pid}-${++counter}`;
  const layout = clearOfModebar({ height: opts.height ?? 420, margin: { t: 48, r: 24, b: 48, l: 56 }, ...fig.layout });
  const payload = JSON.stringify(
    { data: fig.data, layout, config: { responsive: true, displaylogo: false, ...fig.config } },
    showBidiInJson,
  ).replaceAll("<", "\\u003c"); // no "</script>" or "<!--<script>" of a label can end or derail the tag
  const title = opts.title ? ` data-title="${escapeHtml(opts.title)}"` : "";
  return (
    (opts.includePlotly ? plotlyScriptTag() : "") +
    `<div id="${id}" class="openmle-figure"${title}>${snapshotMark(id)}</div>` +
    `<script>(function(){var f=${payload},el=document.getElementById(${JSON.stringify(id)});` +
    `if(typeof Plotly==="undefined"||!el)return;el.innerHTML="";Plotly.newPlot(el,f.data,f.layout,f.config)` +
    `.then(function(g){g.setAttribute("data-drawn","1");${SNAPSHOT_SCRIPT}(g,${JSON.stringify(id)});});})();</script>`
  );
}

/**
 * The opening tag of the inlined plotly.js bundle, found and dropped by the page-side snapshot script (whose
 * own text spells it in pieces, so its pattern never matches itself).
 */
const BUNDLE_OPEN = "<script data-openmle-bundle>";

/**
 * Page-side JS expression: the snapshot's HTML from `url` (a PNG data URL), `w`, `h` and title `t`; the same
 * markup scripts/notebook-snapshots.mjs writes (`snapshotImg`).
 */
const SNAPSHOT_IMG = `'<div class="openmle-snapshot"><img src="'+url+'" width="'+w+'" height="'+h+'" alt="'+
String(t).replace(/&/g,"&amp;").replace(/"/g,"&quot;").replace(/</g,"&lt;").replace(/>/g,"&gt;")+'"></div>'`;

/** Where a notebook output's static snapshot of figure `id` goes (an HTML comment until then). */
const snapshotMark = (id: string) => `<!--openmle-snapshot:${id}-->`;

/**
 * Page-side: in Jupyter Notebook, replace the figure's snapshot mark in its cell's saved output by a static
 * PNG of the drawn figure, drop the plotly.js bundle from that output (the page has run it already; saved, it
 * would make the file megabytes) and mark the notebook changed (saved by the next save or autosave).
 * The mark is spelled in pieces so the script's own text never contains it (nor an HTML comment opener).
 */
const SNAPSHOT_SCRIPT = `(function(g,id){var nb=window.Jupyter&&window.Jupyter.notebook;if(!nb||!nb.get_cells)return;
var mark="<!-"+"-openmle-snapshot:"+id+"-"+"->",text=function(h){return Array.isArray(h)?h.join(""):typeof h==="string"?h:"";};
var cell=nb.get_cells().filter(function(c){return c.output_area&&c.output_area.element&&c.output_area.element[0].contains(g);})[0];if(!cell)return;
var outs=cell.output_area.outputs.filter(function(o){return o.data&&text(o.data["text/html"]).indexOf(mark)>=0;});if(!outs.length)return;
var w=g._fullLayout.width,h=g._fullLayout.height,t=g._fullLayout.title&&g._fullLayout.title.text||"figure";
Plotly.toImage(g,{format:"png",width:w,height:h}).then(function(url){
var img=${SNAPSHOT_IMG};
outs.forEach(function(o){o.data["text/html"]=text(o.data["text/html"]).replace(mark,function(){return img;})
.replace(new RegExp("<scr"+"ipt data-openmle-bundle>[\\\\s\\\\S]*?</scr"+"ipt>","g"),"");});
nb.set_dirty(true);});})`;

export function plotlyScriptTag(): string {
  return `${BUNDLE_OPEN}${plotlyBundle().replaceAll("</script", "<\\/script")}</script>`;
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
